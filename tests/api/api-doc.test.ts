import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../../app/api/v1/routes";
import { buildOpenApiDocument } from "../../lib/api-document/document";

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

/**
 * The README is the front door and docs/ holds the rest: every relative link in the README, the
 * CHANGELOG and every page under docs/ must reach a file the repository has, and an anchor its
 * page has (GitHub's heading ids). Links inside fenced code blocks are examples, not links.
 */
function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

function withoutCodeBlocks(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** The ids GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingIds(file: string): Set<string> {
  const ids = new Set<string>();
  for (const line of withoutCodeBlocks(readFileSync(file, "utf8"))) {
    const heading = /^#{1,6} (.+?)\s*#*$/.exec(line)?.[1];
    if (!heading) continue;
    const id = heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N} _-]/gu, "").replace(/ /g, "-");
    let unique = id;
    for (let n = 1; ids.has(unique); n++) unique = `${id}-${n}`;
    ids.add(unique);
  }
  return ids;
}

/** Relative link targets of a Markdown file, as written (`docs/api.md#batches`, `#limits`). */
function relativeLinks(file: string): string[] {
  const text = withoutCodeBlocks(readFileSync(path.join(ROOT, file), "utf8")).join("\n");
  return [...text.matchAll(/!?\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

const documentation = () => ["README.md", "CHANGELOG.md", ...markdownFiles("docs")];

describe("README.md and docs/", () => {
  it("link only files inside the repository, and only headings their pages have", () => {
    expect(relativeLinks("README.md").map((t) => t.split("#")[0])).toContain("docs/api.md");
    const broken: string[] = [];
    for (const file of documentation()) {
      for (const link of relativeLinks(file)) {
        const [target, anchor] = link.split("#") as [string, string | undefined];
        const resolved = target ? path.resolve(ROOT, path.dirname(file), decodeURIComponent(target)) : path.join(ROOT, file);
        if (!resolved.startsWith(ROOT + path.sep)) broken.push(`${file}: ${link} is outside the repository`);
        else if (!existsSync(resolved)) broken.push(`${file}: ${link} does not exist`);
        else if (anchor && resolved.endsWith(".md") && !headingIds(resolved).has(anchor)) broken.push(`${file}: ${link} names no heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("reach every page of docs/ from the README in one hop, and every decision from docs/adr/README.md", () => {
    const fromReadme = new Set(relativeLinks("README.md").map((t) => path.normalize(decodeURIComponent(t.split("#")[0]!))));
    const pages = markdownFiles("docs").filter((file) => !file.startsWith(path.join("docs", "adr") + path.sep));
    expect(pages.filter((page) => !fromReadme.has(page))).toEqual([]);
    expect(fromReadme.has(path.join("docs", "adr", "README.md"))).toBe(true);
    const index = new Set(relativeLinks("docs/adr/README.md").map((t) => path.join("docs", "adr", t.split("#")[0]!)));
    const records = markdownFiles("docs/adr").filter((file) => path.basename(file) !== "README.md");
    expect(records.length).toBeGreaterThan(20);
    expect(records.filter((record) => !index.has(record))).toEqual([]);
  });

  it("keep each decision record as NNNN-title.md with its context, decision and consequences", () => {
    const records = markdownFiles("docs/adr").filter((file) => path.basename(file) !== "README.md").sort();
    records.forEach((record, i) => {
      expect(path.basename(record), "numbered in order, from 0001").toMatch(new RegExp(`^${String(i + 1).padStart(4, "0")}-[a-z0-9-]+\\.md$`));
      const headings = withoutCodeBlocks(readFileSync(path.join(ROOT, record), "utf8")).filter((line) => line.startsWith("## "));
      expect(headings, record).toEqual(["## Context", "## Decision", "## Consequences"]);
    });
  });
});
