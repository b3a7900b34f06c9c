import { connect, Socket } from "node:net";
import pg from "pg";
import { splitHosts, type Host, type Target } from "../database-url";

/**
 * A DATABASE_URL with several hosts (`postgres://u:p@host1:5432,host2:5432/db?target_session_attrs=read-write`),
 * the form a failover setup gives every process (docs/operating.md#postgresql-failover), for both
 * drivers. Neither takes it as it is: node-postgres 8 (graphile-worker's) reads one host from a URL,
 * and postgres.js 3.4, given several, (a) takes a hot standby for read-write (it checks only
 * default_transaction_read_only, which a PostgreSQL 14+ standby reports off) and (b) while no host
 * qualifies, goes round the hosts for ever with the query waiting, so a request hangs instead of
 * failing. So each new connection first finds a host that answers and, when target_session_attrs
 * asks for it, takes writes (libpq's read-write and primary: not in recovery, not read-only by
 * default), then connects there; while none does, it fails at once as a connection error (SQLSTATE
 * 08001), which lib/db/errors.ts and graphile-worker treat as the database being away (the web
 * answers 503). A pool's connections live long, so the probe's extra connection is rare.
 */

async function takesWrites(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ writable: boolean }>(
    "select not pg_is_in_recovery() and current_setting('default_transaction_read_only') = 'off' as writable",
  );
  return rows[0]?.writable === true;
}

/** The first of `hosts` that answers and, unless `target` is "any", takes writes. */
export async function findHost(hosts: Host[], urlFor: (host: Host) => string, target: Target, timeoutMs: number): Promise<Host> {
  const reasons: string[] = [];
  for (const host of hosts) {
    if (target === "any" && hosts.length === 1) return host;
    const probe = new pg.Client({ connectionString: urlFor(host), connectionTimeoutMillis: timeoutMs });
    probe.on("error", () => {});
    try {
      await probe.connect();
      if (target === "any" || (await takesWrites(probe))) return host;
      reasons.push(`${host.host}:${host.port} does not take writes`);
    } catch (error) {
      reasons.push(`${host.host}:${host.port}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await probe.end().catch(() => {});
    }
  }
  throw Object.assign(new Error(`no host of DATABASE_URL is available${target === "any" ? "" : " for writes"} (${reasons.join("; ")})`), { code: "08001" });
}

/**
 * For a URL with several hosts or a target_session_attrs: the first host's URL alone and a socket
 * factory that connects to the host findHost picks — what postgres.js's `socket` option takes. Null
 * for a plain one-host URL.
 */
export function failoverSocket(url: string, timeoutMs = 5_000): { url: string; socket: () => Promise<Socket> } | null {
  const { hosts, urlFor, target } = splitHosts(url);
  if (hosts.length === 1 && target === "any") return null;
  return {
    url: urlFor(hosts[0]!),
    socket: async () => {
      try {
        const found = await findHost(hosts, urlFor, target, timeoutMs);
        return connect(found.port, found.host);
      } catch (error) {
        // A factory that throws leaves postgres.js's connection half made, and every later query on
        // it waits for ever; a socket that fails goes its ordinary way: the query fails with this
        // error, and the connection closes and is made again by the next query.
        const failed = new Socket();
        process.nextTick(() => failed.destroy(error as Error));
        return failed;
      }
    },
  };
}
