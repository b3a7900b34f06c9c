import { readFileSync } from "node:fs";
import path from "node:path";
import { isOtherMethod } from "../../lib/http/methods";
import { routeContract } from "../../lib/http/route-contract";
import { UNSERVED, unservedOperation, type Unserved } from "../../lib/svix/unserved-operations";
import { router } from "../helpers/route-server";

/**
 * Svix's API document as pinned in tests/fixtures (README there), operation by operation, and what
 * this server does with each: the table tests/svix/spec-coverage.test.ts calls through and
 * docs/svix.md's matrix is printed from (scripts/svix-matrix.ts).
 */
const DOCUMENT = path.resolve("tests/fixtures/svix-openapi.json");
const APP_API = path.resolve("app/api");

type Document = { paths: Record<string, Record<string, { operationId: string; tags?: string[] }>> };

export type SpecOperation = {
  method: string;
  /** As the document writes it: /api/v1/app/{app_id}. */
  path: string;
  operationId: string;
  tag: string;
};

export type Verdict =
  | { kind: "served"; summary: string; route: string }
  | { kind: "refused"; unserved: Unserved }
  /** Neither: what the test fails on. */
  | { kind: "unrouted"; route: string | null };

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation of the document under /api/v1, in its order. (Svix Ingest's, under /ingest/api/v1, is another base path: see `outside`.) */
export function specOperations(): SpecOperation[] {
  return allOperations().filter((op) => op.path.startsWith("/api/v1/"));
}

/** The document's operations outside /api/v1 (Svix Ingest's `/ingest/api/v1/…`), which this server does not route. */
export function outside(): SpecOperation[] {
  return allOperations().filter((op) => !op.path.startsWith("/api/v1/"));
}

function allOperations(): SpecOperation[] {
  const document = JSON.parse(readFileSync(DOCUMENT, "utf8")) as Document;
  return Object.entries(document.paths).flatMap(([p, operations]) =>
    Object.entries(operations)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path: p, operationId: op.operationId, tag: op.tags?.[0] ?? "" })),
  );
}

/** The operation's path below /api/v1 with each parameter a placeholder segment. */
export const relative = (op: SpecOperation, fill: (param: string) => string = () => "x") =>
  op.path.replace(/^\/api\/v1/, "").replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(fill(name)));

const route = router(APP_API);

/**
 * Served: the route Next.js picks for the path (as tests/helpers/route-server.ts routes it) is not a
 * catch-all and implements the method. Refused: lib/svix/unserved-operations.ts names it.
 */
export async function verdict(op: SpecOperation): Promise<Verdict> {
  const below = relative(op);
  const found = route(`/api/v1${below}`);
  const file = found && path.relative(APP_API, found.route.file);
  if (found && !found.route.segments.some((s) => s.startsWith("[..."))) {
    const handler = ((await import(found.route.file)) as Record<string, unknown>)[op.method];
    if (typeof handler === "function" && !isOtherMethod(handler)) {
      return { kind: "served", summary: routeContract(handler)?.doc?.summary ?? "", route: file! };
    }
  }
  const unserved = unservedOperation(op.method, below);
  return unserved ? { kind: "refused", unserved } : { kind: "unrouted", route: file };
}

/** Entries of UNSERVED that name no operation of the document (stale, or mistyped), but those the SDKs alone still have. */
export function strayUnserved(operations: SpecOperation[]): Unserved[] {
  return UNSERVED.filter((entry) => !entry.sdkOnly && !operations.some((op) => unservedOperation(op.method, relative(op)) === entry));
}

const MATRIX_START = "<!-- svix-matrix:start (scripts/svix-matrix.ts prints it from tests/fixtures/svix-openapi.json) -->";
const MATRIX_END = "<!-- svix-matrix:end -->";

/** docs/svix.md's matrix: every operation of the document, served (and how) or refused (and why). */
export async function matrix(): Promise<string> {
  const operations = specOperations();
  const rows: string[] = [];
  let served = 0;
  for (const op of operations) {
    const v = await verdict(op);
    if (v.kind === "unrouted") throw new Error(`${op.method} ${op.path} is neither served nor refused`);
    if (v.kind === "served") served++;
    const how = v.kind === "served" ? `served: ${v.summary.replace(/\s*\(Svix: [^)]*\)$/, "")}` : `501: ${v.unserved.why}`;
    rows.push(`| ${op.tag} | \`${op.operationId.replace(/^v1\./, "")}\` | \`${op.method} ${op.path.replace(/^\/api\/v1/, "")}\` | ${how.replaceAll("|", "\\|")} |`);
  }
  return [
    MATRIX_START,
    "",
    `${operations.length} operations under \`/api/v1\`: ${served} served, ${operations.length - served} answered 501 \`not_implemented\` with the reason.`,
    `The ${outside().length} operations of Svix Ingest (\`/ingest/api/v1/…\`, another base path) are not routed.`,
    "",
    "| tag | operation | method and path (below `/api/v1`) | here |",
    "|---|---|---|---|",
    ...rows,
    "",
    MATRIX_END,
  ].join("\n");
}

/** The matrix block as a page holds it (null when it has none). */
export function matrixIn(page: string): string | null {
  const start = page.indexOf(MATRIX_START);
  const end = page.indexOf(MATRIX_END);
  return start < 0 || end < 0 ? null : page.slice(start, end + MATRIX_END.length);
}
