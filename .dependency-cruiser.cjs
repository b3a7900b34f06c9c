// The layering of lib/ (docs/project-layout.md#layering), checked by `npm run check` (so by
// `npm test`) with dependency-cruiser; tests/operations/layering.test.ts shows each rule failing
// on a knotted copy.
//
// LAYERS lists lib/'s folders and its own files, lowest layer first and, within a layer, in an
// order with no cycles. An entry may import only entries listed before it: any lower layer, and
// the earlier entries of its own. So an import that goes up — to a higher layer, or back to a later
// entry of its own layer — fails, and two folders can never import each other: the order is the
// proof that lib/ has no folder-level cycle. Type-only imports count as much as any other. A new
// folder takes its place in this list (an unlisted one fails too).
const LAYERS = {
  // Pure: no database, no domain. config.ts parses the settings with the validators before it.
  core: [
    "errors.ts",
    "ids.ts",
    "duration.ts",
    "version.ts",
    "schemas.ts",
    "pagination.ts",
    "logging",
    "logger.ts",
    "telemetry",
    "i18n",
    "webhooks",
    "filters",
    "event-schemas",
    "portal-page",
    "database-url.ts",
    "config.ts",
    "request-limits",
  ],
  // The database and what every domain writes through: the schema and its enums, ctx, encryption,
  // the job queue, the metrics registry, the OpenAPI operation type a domain's openapi.ts uses.
  data: ["db", "context.ts", "open-ctx.ts", "crypto", "jobs", "metrics", "openapi"],
  // One folder per concept, each above the ones it reads or calls; the delivery pipeline
  // (deliveries) above the domains its outcomes follow up in (endpoints, stats, recoveries), the
  // audit log's read side (audit-log) above every domain it names while recording (audit) is below them all.
  domains: [
    "audit",
    "destinations",
    "ordering",
    "event-types",
    "consumers",
    "api-keys",
    "operator-sessions",
    "two-factor",
    "operators",
    "actors",
    "endpoints",
    "messages",
    "attempts",
    "stats",
    "recoveries",
    "deliveries",
    "polling",
    "retention",
    "alerts",
    "audit-log",
    "portal",
    "receiving",
  ],
  // Where requests, the CLI and the worker come in: the route wrappers, the Svix adapters, the
  // OpenAPI document's assembly, the runtime, the demo, the sweep.
  surface: ["auth", "http", "svix", "svix-import", "api-document", "demo", "runtime", "health", "maintenance"],
};

const ORDER = Object.entries(LAYERS).flatMap(([layer, entries]) => entries.map((entry) => ({ layer, entry })));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The modules of these entries: a folder's files at any depth, or one of lib/'s own files. */
const modulesOf = (entries) => `^lib/(${entries.map(escape).join("|")})(/|$)`;
const LISTED = modulesOf(ORDER.map(({ entry }) => entry));

module.exports = {
  forbidden: [
    ...ORDER.slice(0, -1).map(({ layer, entry }, i) => ({
      name: "layers-import-down",
      severity: "error",
      comment: `lib/${entry} (${layer}) may import only what is listed before it in .dependency-cruiser.cjs — a lower layer, or an earlier entry of its own (docs/project-layout.md#layering)`,
      from: { path: modulesOf([entry]) },
      to: { path: modulesOf(ORDER.slice(i + 1).map((later) => later.entry)) },
    })),
    {
      name: "layers-list-every-folder",
      severity: "error",
      comment: "Every folder and file of lib/ has its place in LAYERS (.dependency-cruiser.cjs): add the new one where it belongs",
      from: { path: "^lib/", pathNot: LISTED },
      to: {},
    },
    {
      name: "layers-list-every-folder",
      severity: "error",
      comment: "Every folder and file of lib/ has its place in LAYERS (.dependency-cruiser.cjs): add the new one where it belongs",
      from: {},
      to: { path: "^lib/", pathNot: LISTED },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "Two modules import each other, directly or through others: move what both need below both",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports are dependencies too: a type that runs back up the layers is a knot as well.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    // Tests may reach anywhere (a lib test imports tests/helpers).
    exclude: { path: "\\.test\\.tsx?$" },
  },
};
