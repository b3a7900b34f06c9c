// The image's node_modules: only the packages something run in the image loads, with everything
// they depend on (deploy/Dockerfile runs this after `next build`, in the build stage).
//
// Kept: what the processes' own TypeScript imports (found by esbuild from the entry points below,
// which tsx runs), what the web app's build loads at run time (the files Next.js traced into
// .next/**/*.nft.json, the same lists its "standalone" output copies), and, from package-lock.json,
// every dependency, optional dependency and required peer of those. Everything else goes: the dev
// dependencies, and the browser-only packages `next build` has already bundled into .next/.
// Usage: node deploy/prune-node-modules.mjs [--dry-run]   (from the repository root)
import { build } from "esbuild";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

// Each command of the image (package.json: start, web, worker, migrate, cli), the web server
// scripts/start.ts starts, the config Next.js loads on start, and the HEALTHCHECK.
const ENTRY_POINTS = ["scripts/start.ts", "web/server.ts", "worker/index.ts", "scripts/migrate.ts", "scripts/cli.ts", "next.config.ts", "deploy/healthcheck.mjs"];
// Loaded by name rather than imported: `node --import tsx`.
const BY_NAME = ["tsx"];

const dryRun = process.argv.includes("--dry-run");
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")).packages;

/** The package a bare import names (`@scope/name/sub` → `@scope/name`), or null for a builtin. */
function packageOf(specifier) {
  if (specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0])) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

async function importedBySource() {
  const { metafile } = await build({
    entryPoints: ENTRY_POINTS,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    outdir: "/nonexistent",
    write: false,
    metafile: true,
    logLevel: "error",
  });
  return Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => packageOf(i.path)));
}

function tracedByNext() {
  const names = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "cache" && entry.name !== "node_modules") walk(file);
      else if (entry.name.endsWith(".nft.json")) {
        for (const traced of JSON.parse(readFileSync(file, "utf8")).files) {
          const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path.relative(".", path.resolve(dir, traced)));
          if (match) names.push(match[1]);
        }
      }
    }
  };
  walk(".next");
  return names;
}

/** The lockfile key a package named `name` resolves to from the package at `from`, as Node.js walks up. */
function resolveFrom(from, name) {
  for (let dir = from; ; ) {
    const key = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (lock[key] && existsSync(key)) return key;
    if (!dir) return null;
    const parent = dir.lastIndexOf("/node_modules/");
    dir = parent === -1 ? "" : dir.slice(0, parent);
  }
}

const roots = new Set([...BY_NAME, ...(await importedBySource()), ...tracedByNext()].filter(Boolean));
const keep = new Set();
// A traced name outside the lockfile (.next/node_modules' aliases of the externals, which stay with
// .next) resolves to nothing.
const queue = [...roots].map((name) => resolveFrom("", name));
while (queue.length > 0) {
  const key = queue.pop();
  if (!key || keep.has(key)) continue;
  keep.add(key);
  const entry = lock[key];
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional);
  for (const name of [...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }), ...peers]) queue.push(resolveFrom(key, name));
}

const dropped = Object.keys(lock).filter((key) => key.startsWith("node_modules/") && !keep.has(key) && existsSync(key));
// A folder inside a dropped one goes with it.
const topmost = dropped.filter((key) => !dropped.some((other) => key.startsWith(`${other}/`)));
for (const key of topmost) if (!dryRun) rmSync(key, { recursive: true, force: true });
// Commands of the dropped packages.
const bin = "node_modules/.bin";
if (!dryRun && existsSync(bin)) for (const link of readdirSync(bin)) if (!existsSync(path.join(bin, link))) rmSync(path.join(bin, link), { force: true });
console.log(`node_modules: kept ${keep.size} packages, ${dryRun ? "would drop" : "dropped"} ${topmost.length}${dryRun ? `: ${topmost.map((k) => k.slice("node_modules/".length)).join(" ")}` : ""}`);
