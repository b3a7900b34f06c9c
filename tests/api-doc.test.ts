import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../app/api/v1/routes";
import { buildOpenApiDocument } from "../lib/openapi/document";

/**
 * docs/api.md is the REST contract shipped with the code; the OpenAPI document is generated from
 * the code. Neither may drift from the other unnoticed: a route is in both, or the contract says it
 * is not served yet.
 */
const ROOT = path.resolve(".");
const contract = readFileSync(path.join(ROOT, "docs/api.md"), "utf8");

function section(markdown: string, heading: string): string[] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(heading);
  expect(start, `docs/api.md has a "${heading}" section`).toBeGreaterThanOrEqual(0);
  const level = heading.split(" ")[0]!;
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.split(" ")[0]!.length <= level.length);
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/**
 * The first column of the routes table as `METHOD /path` pairs. A cell may list several methods
 * (`GET·PATCH·DELETE /consumers/{consumer}`) and sibling paths after ` · ` (`POST
 * /endpoints/{id}/enable · /disable`: the last path segment replaced, the same methods).
 */
function contractRoutes(): string[] {
  const routes: string[] = [];
  for (const line of section(contract, "## Routes")) {
    const cell = /^\| ([^|]+?) \|/.exec(line)?.[1];
    if (!cell || cell === "method and path" || /^-+$/.test(cell)) continue;
    let methods: string[] = [];
    let previous = "";
    for (const part of cell.split(" · ")) {
      const full = /^([A-Z]+(?:·[A-Z]+)*) (\/\S*)$/.exec(part);
      let route: string;
      if (full) {
        methods = full[1]!.split("·");
        route = full[2]!;
      } else if (/^\/\S+$/.test(part) && previous) {
        route = previous.replace(/\/[^/]+$/, "") + part;
      } else {
        throw new Error(`docs/api.md: cannot read the route cell "${cell}"`);
      }
      previous = route;
      routes.push(...methods.map((m) => `${m} ${route}`));
    }
  }
  return routes;
}

const notServedYet = () =>
  section(contract, "### Not served yet").flatMap((line) => {
    const item = /^- `([A-Z]+ \/\S*)`$/.exec(line);
    return item ? [item[1]!] : [];
  });

const served = () =>
  Object.entries((buildOpenApiDocument(API_ROUTES) as { paths: Record<string, Record<string, unknown>> }).paths).flatMap(([route, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${route}`),
  );

const sorted = (list: string[]) => [...list].sort();

describe("docs/api.md", () => {
  it("reads as a routes table of the whole API", () => {
    const routes = contractRoutes();
    expect(routes.length).toBeGreaterThan(40);
    expect(new Set(routes).size, "no route listed twice").toBe(routes.length);
    expect(routes).toEqual(expect.arrayContaining(["POST /endpoints/{id}/disable", "DELETE /consumers/{consumer}", "POST /recoveries/{id}/cancel"]));
  });

  it("lists every route the OpenAPI document has", () => {
    const inContract = new Set(contractRoutes());
    expect(served().filter((route) => !inContract.has(route))).toEqual([]);
  });

  it("has every route of its table served, except exactly those it lists as not served yet", () => {
    const isServed = new Set(served());
    expect(sorted(contractRoutes().filter((route) => !isServed.has(route)))).toEqual(sorted(notServedYet()));
  });
});

describe("README.md", () => {
  it("links only files inside the repository", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
    expect(targets).toContain("docs/api.md");
    for (const target of targets) {
      const resolved = path.resolve(ROOT, target);
      expect(resolved.startsWith(ROOT + path.sep), `${target} is outside the repository`).toBe(true);
      expect(existsSync(resolved), `${target} exists`).toBe(true);
    }
  });
});
