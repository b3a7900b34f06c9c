import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startNode } from "./node-process";
import { waitFor } from "./receiver";

/**
 * The release before this code, as git holds it: tests/operations/upgrade.test.ts upgrades a database of its
 * schema while its processes run. Move it forward when a release is cut (the commit that sets
 * package.json's version; there are no tags).
 */
export const PREVIOUS_RELEASE = { version: "0.2.0", commit: "f19e6101a9b2a027adbfd94eb3d03cd5b7124098" };

/**
 * That commit's tree in a temporary folder (`git archive`: nothing of this checkout's git state
 * changes), running on this checkout's node_modules through a symlink — so the release's own
 * dependencies must be a subset of today's, at the same versions (checked: package.json gained
 * packages since, and changed none).
 */
export function materialiseRelease(release = PREVIOUS_RELEASE) {
  try {
    execFileSync("git", ["cat-file", "-e", `${release.commit}^{commit}`], { stdio: "ignore" });
  } catch {
    throw new Error(`commit ${release.commit} (release ${release.version}) is not in this clone: the upgrade test needs the history (git fetch --unshallow)`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), `wa-release-${release.version}-`));
  const archive = execFileSync("git", ["archive", "--format=tar", release.commit], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
  const version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  if (version !== release.version) throw new Error(`commit ${release.commit} is version ${version}, not ${release.version}`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A web process of a tree without building it: its app/api route handlers served as Next.js routes
 * them (tests/helpers/serve-routes.ts, run there), ready once its /api/health/ready answers 200.
 * `stop` is SIGTERM: it stops taking connections, finishes what is in flight and exits 0.
 */
export async function startRouteServer(tree: string, env: Record<string, string> = {}) {
  const child = startNode(path.resolve("tests/helpers/serve-routes.ts"), [], { cwd: tree, env });
  const stop = () => child.signal("SIGTERM");
  try {
    const url = await waitFor(
      () => {
        if (child.done()) throw new Error(`the route server exited:\n${child.output()}`);
        return /\{"listening":"([^"]+)"\}/.exec(child.output())?.[1] ?? null;
      },
      { timeout: 60_000, what: "the route server to listen", onTimeout: () => console.log(child.output()) },
    );
    await waitFor(async () => (await fetch(`${url}/api/health/ready`).catch(() => null))?.status === 200, {
      timeout: 60_000,
      what: "the route server to be ready",
      onTimeout: () => console.log(child.output()),
    });
    return { url, output: child.output, exited: child.exited, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
