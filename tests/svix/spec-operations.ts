import { readFileSync } from "node:fs";
import path from "node:path";
import { isOtherMethod } from "../../lib/http/methods";
import { routeContract } from "../../lib/http/route-contract";
import { SVIX_BASES, UNSERVED, unservedOperation, type SvixBase, type Unserved } from "../../lib/svix/unserved-operations";
import { router } from "../helpers/route-server";

/**
 * Svix's API document as pinned in tests/fixtures (README there), operation by operation, and what
 * this server does with each: the table tests/svix/spec-coverage.test.ts calls through and
 * docs/svix.md's matrix is printed from (scripts/svix-matrix.ts).
 */
const DOCUMENT = path.resolve("tests/fixtures/svix-openapi.json");
const APP = path.resolve("app");

type Document = { paths: Record<string, Record<string, { operationId: string; tags?: string[] }>> };

export type SpecOperation = {
  method: string;
  /** As the document writes it: /api/v1/app/{app_id}, /ingest/api/v1/source. */
  path: string;
  /** Its base path: Svix's API, or Svix Ingest's. */
  base: SvixBase;
  operationId: string;
  tag: string;
};

export type Verdict =
  | { kind: "served"; summary: string; route: string }
  | { kind: "refused"; unserved: Unserved }
  /** Neither: what the test fails on. */
  | { kind: "unrouted"; route: string | null };

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation of the document, in its order: Svix's API under /api/v1, then Svix Ingest's under /ingest/api/v1. */
export function specOperations(): SpecOperation[] {
  const document = JSON.parse(readFileSync(DOCUMENT, "utf8")) as Document;
  const operations = Object.entries(document.paths).flatMap(([p, operations]) =>
    Object.entries(operations)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path: p, base: baseOf(p), operationId: op.operationId, tag: op.tags?.[0] ?? "" })),
  );
  return [...operations.filter((op) => op.base === "api"), ...operations.filter((op) => op.base === "ingest")];
}

function baseOf(p: string): SvixBase {
  const base = (Object.keys(SVIX_BASES) as SvixBase[]).find((b) => p.startsWith(`${SVIX_BASES[b]}/`));
  if (!base) throw new Error(`${p} is under no base path of Svix's`);
  return base;
}

/** The operation's path below its base path with each parameter a placeholder segment. */
export const relative = (op: SpecOperation, fill: (param: string) => string = () => "x") =>
  op.path.slice(SVIX_BASES[op.base].length).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(fill(name)));

/** The path to call for the operation, its parameters filled. */
export const callPath = (op: SpecOperation, fill?: (param: string) => string) => `${SVIX_BASES[op.base]}${relative(op, fill)}`;

const route = router(APP);

/**
 * Served: the route Next.js picks for the path (as tests/helpers/route-server.ts routes it) is not a
 * catch-all and implements the method. Refused: lib/svix/unserved-operations.ts names it.
 */
export async function verdict(op: SpecOperation): Promise<Verdict> {
  const found = route(callPath(op));
  const file = found && path.relative(APP, found.route.file);
  if (found && !found.route.segments.some((s) => s.startsWith("[..."))) {
    const handler = ((await import(found.route.file)) as Record<string, unknown>)[op.method];
    if (typeof handler === "function" && !isOtherMethod(handler)) {
      return { kind: "served", summary: routeContract(handler)?.doc?.summary ?? "", route: file! };
    }
  }
  const unserved = unservedOperation(op.method, relative(op), op.base);
  return unserved ? { kind: "refused", unserved } : { kind: "unrouted", route: file };
}

/** Entries of UNSERVED that name no operation of the document (stale, or mistyped), but those the SDKs alone still have. */
export function strayUnserved(operations: SpecOperation[]): Unserved[] {
  return UNSERVED.filter((entry) => !entry.sdkOnly && !operations.some((op) => unservedOperation(op.method, relative(op), op.base) === entry));
}

const MATRIX_START = "<!-- svix-matrix:start (scripts/svix-matrix.ts prints it from tests/fixtures/svix-openapi.json) -->";
const MATRIX_END = "<!-- svix-matrix:end -->";

/** docs/svix.md's matrix: every operation of the document, served (and how) or refused (and why). */
export async function matrix(): Promise<string> {
  const operations = specOperations();
  const rows: string[] = [];
  const counts = { api: { all: 0, served: 0 }, ingest: { all: 0, served: 0 } };
  for (const op of operations) {
    const v = await verdict(op);
    if (v.kind === "unrouted") throw new Error(`${op.method} ${op.path} is neither served nor refused`);
    counts[op.base].all++;
    if (v.kind === "served") counts[op.base].served++;
    const how = v.kind === "served" ? `served: ${v.summary.replace(/\s*\(Svix: [^)]*\)$/, "")}` : `501: ${v.unserved.why}`;
    // Paths below /api/v1, as the SDKs' methods are read; Svix Ingest's whole, its base being another.
    const where = op.base === "api" ? op.path.slice(SVIX_BASES.api.length) : op.path;
    rows.push(`| ${op.tag} | \`${op.operationId.replace(/^v1\./, "")}\` | \`${op.method} ${where}\` | ${how.replaceAll("|", "\\|")} |`);
  }
  const { api, ingest } = counts;
  return [
    MATRIX_START,
    "",
    `${api.all} operations under \`/api/v1\`: ${api.served} served, ${api.all - api.served} answered 501 \`not_implemented\` with the reason.`,
    `${ingest.all} operations of Svix Ingest, under its own base path \`/ingest/api/v1\`: ${ingest.served} served, ${ingest.all - ingest.served} answered 501 \`not_implemented\` with the reason.`,
    "",
    "| tag | operation | method and path (below `/api/v1`, or Ingest's whole) | here |",
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
