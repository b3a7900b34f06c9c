import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// What the Next.js build is made from: a file newer than .next/BUILD_ID means the build is stale.
const SOURCES = [
  "app",
  "components",
  "lib",
  "i18n",
  "messages",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** Whether `next build` must run first: there is no build, or a source changed since it. */
export function nextBuildState(): { builtBefore: boolean; stale: boolean } {
  const buildId = ".next/BUILD_ID";
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  return { builtBefore: builtAt > 0, stale: builtAt === 0 || SOURCES.some((entry) => newestMtime(entry) >= builtAt) };
}
