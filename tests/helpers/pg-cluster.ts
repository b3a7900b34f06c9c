import { spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "./built-app";
import { waitFor } from "./receiver";

/**
 * PostgreSQL clusters of a test file's own, for what one server cannot show: a dump restored
 * elsewhere, a primary with a streaming standby, a failover, a read replica. Debian's PostgreSQL 15
 * (`apt-get install -y postgresql-15`; .ci/run installs it), because it ships what the embedded 17
 * lacks — pg_basebackup for the standby, pg_dump and pg_restore for the drill — and a standby must
 * be its primary's major version. Each cluster lives in a temporary folder on a free port on
 * 127.0.0.1, trusts local connections (nothing but the test reaches them), and is removed by
 * `close()`. Under root the server runs as the "postgres" user, as PostgreSQL insists.
 * Every wait is on an event the server reports (pg_ctl -w, pg_stat_replication), never a sleep.
 */

export const PG_BIN = process.env.PG_BIN_DIR ?? "/usr/lib/postgresql/15/bin";

function requireBinaries(): void {
  for (const tool of ["initdb", "pg_ctl", "pg_basebackup", "pg_dump", "pg_restore"]) {
    const file = path.join(PG_BIN, tool);
    if (!existsSync(file)) throw new Error(`${file} is missing: these suites need Debian's PostgreSQL 15 (apt-get install -y postgresql-15; see docs/testing.md), or PG_BIN_DIR naming another 15's bin/`);
  }
}

/** The uid and gid the server runs as: ours, or the "postgres" user's under root. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error('running as root, and there is no "postgres" user for the server to run as (Debian\'s postgresql-15 creates it)');
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/** Runs one of PostgreSQL's programs to its end, as the server's user; rejects with its output on a non-zero exit. */
export function pgTool(tool: string, args: string[], options: { asServer?: boolean } = {}): Promise<string> {
  const user = options.asServer ? serverUser() : null;
  const child = spawn(path.join(PG_BIN, tool), args, { stdio: ["ignore", "pipe", "pipe"], ...(user ?? {}), env: { ...process.env, LC_ALL: "C" } });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`${tool} ${args.join(" ")} exited ${code}:\n${output}`))));
  });
}

function makeDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o700);
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

export type PgNode = {
  name: string;
  port: number;
  dataDir: string;
  /** postgres://…@127.0.0.1:port/<database> */
  url(database?: string): string;
  /** The server's log so far. */
  log(): string;
  /** Stops it the way a crash does: no checkpoint, no goodbye to clients or standbys. */
  stopHard(): Promise<void>;
  /** Ends recovery: a standby becomes a primary that takes writes (waits until it does). */
  promote(): Promise<void>;
  /** Stops it (if running) and removes its data. */
  close(): Promise<void>;
};

function node(name: string, dir: string, port: number): PgNode {
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  let running = true;
  const ctl = (args: string[]) => pgTool("pg_ctl", ["-D", dataDir, ...args], { asServer: true });
  return {
    name,
    port,
    dataDir,
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
    stopHard: async () => {
      if (!running) return;
      running = false;
      await ctl(["stop", "-m", "immediate", "-w"]);
    },
    promote: async () => {
      await ctl(["promote", "-w"]);
    },
    close: async () => {
      if (running) {
        running = false;
        await ctl(["stop", "-m", "immediate", "-w"]).catch(() => {});
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startServer(dir: string, port: number, settings: Record<string, string>): Promise<void> {
  const conf = Object.entries(settings).map(([key, value]) => `${key} = '${value}'`);
  writeFileSync(path.join(dir, "data", "postgresql.auto.conf"), `${conf.join("\n")}\n`, { flag: "a" });
  await pgTool("pg_ctl", ["-D", path.join(dir, "data"), "-l", path.join(dir, "server.log"), "-o", `-p ${port}`, "-w", "-t", "120", "start"], { asServer: true });
}

const COMMON = {
  listen_addresses: "127.0.0.1",
  unix_socket_directories: "",
  max_connections: "200",
  // The server process is what these suites kill, never the machine: what it wrote is in the OS's
  // cache either way, so flushing to disk would only slow a shared 2-core machine.
  fsync: "off",
  wal_level: "replica",
  max_wal_senders: "10",
  max_replication_slots: "10",
  hot_standby: "on",
  // A standby's queries and the primary's vacuum never cancel each other mid-test.
  hot_standby_feedback: "on",
};

/** A primary on a free port, with what a standby needs to stream from it. */
export async function startPrimary(options: { settings?: Record<string, string> } = {}): Promise<PgNode> {
  requireBinaries();
  const dir = makeDir("wa-pg-primary-");
  const port = await freePort();
  await pgTool("initdb", ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"], { asServer: true });
  await startServer(dir, port, { ...COMMON, ...options.settings });
  return node("primary", dir, port);
}

/**
 * A hot standby of `primary` streaming from it through a replication slot of its own (so the
 * primary keeps every WAL segment it has not received): pg_basebackup -R writes standby.signal and
 * primary_conninfo. Resolves once the primary reports it streaming. `synchronous`: then the
 * primary's synchronous standby (synchronous_standby_names, set only now — a commit before any
 * standby streams would wait for one), so that `synchronous_commit = on` means "on the standby too",
 * which is what lets a failover lose nothing; resolves once the primary reports it in sync.
 */
export async function startStandby(primary: PgNode, name = "standby1", options: { synchronous?: boolean } = {}): Promise<PgNode> {
  requireBinaries();
  const dir = makeDir(`wa-pg-${name}-`);
  const port = await freePort();
  await pgTool(
    "pg_basebackup",
    ["-d", `host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}`, "-D", path.join(dir, "data"), "-X", "stream", "-R", "-C", "-S", name, "--no-sync"],
    { asServer: true },
  );
  await startServer(dir, port, { ...COMMON });
  const standby = node(name, dir, port);
  if (options.synchronous) {
    const sql = postgres(primary.url(), { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(`alter system set synchronous_standby_names = '${name}'`);
      await sql`select pg_reload_conf()`;
    } finally {
      await sql.end();
    }
  }
  await waitForStreaming(primary, name, options.synchronous ?? false);
  return standby;
}

/** Resolves once `primary` reports `name` streaming (and, if `sync`, as its synchronous standby). */
export async function waitForStreaming(primary: PgNode, name: string, sync = false): Promise<void> {
  const sql = postgres(primary.url(), { max: 1, onnotice: () => {} });
  try {
    await waitFor(
      async () => {
        const [row] = await sql<{ state: string; sync: string }[]>`
          select state, sync_state as sync from pg_stat_replication where application_name = ${name}`;
        return row?.state === "streaming" && (!sync || row.sync === "sync");
      },
      { timeout: 60_000, what: `${name} to stream from the primary`, onTimeout: () => console.log(primary.log()) },
    );
  } finally {
    await sql.end();
  }
}

/** Resolves once `standby` has replayed everything `primary` has written so far. */
export async function waitForReplay(primary: PgNode, standby: PgNode): Promise<void> {
  const p = postgres(primary.url(), { max: 1, onnotice: () => {} });
  const s = postgres(standby.url(), { max: 1, onnotice: () => {} });
  try {
    const [{ lsn } = { lsn: "" }] = await p<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
    await waitFor(
      async () => {
        const [row] = await s<{ caught: boolean }[]>`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as caught`;
        return row?.caught;
      },
      { timeout: 60_000, what: `${standby.name} to replay up to ${lsn}` },
    );
  } finally {
    await p.end();
    await s.end();
  }
}

/** The two servers as one DATABASE_URL: whichever takes writes answers (postgres.js and node-postgres alike). */
export function multiHostUrl(nodes: PgNode[], database: string): string {
  return `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.port}`).join(",")}/${database}?target_session_attrs=read-write`;
}
