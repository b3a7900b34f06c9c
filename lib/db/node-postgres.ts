import pg from "pg";
import { splitHosts } from "../database-url";
import { findHost } from "./hosts";

/**
 * graphile-worker's pool: a pg.Pool on `url` (one host or several, lib/db/hosts.ts). One host and no target: node-postgres as it is. Several:
 * each new connection goes to the host findHost picks at that moment, so after a failover the pool's
 * new connections reach the promoted server and the dead ones are dropped as their queries fail.
 */
export function nodePostgresPool(url: string, options: Omit<pg.PoolConfig, "connectionString" | "Client"> = {}): pg.Pool {
  const { hosts, urlFor, target } = splitHosts(url);
  if (hosts.length === 1 && target === "any") return new pg.Pool({ ...options, connectionString: url });
  const timeoutMs = options.connectionTimeoutMillis || 5_000;
  class FailoverClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      const connecting = findHost(hosts, urlFor, target, timeoutMs).then((found) => {
        // The address Client#connect dials; user, password, database and the rest are every host's.
        this.host = found.host;
        this.port = found.port;
        return super.connect();
      });
      if (!callback) return connecting;
      connecting.then(
        () => callback(undefined as unknown as Error),
        (error: Error) => callback(error),
      );
    }
  }
  return new pg.Pool({ ...options, connectionString: urlFor(hosts[0]!), Client: FailoverClient });
}
