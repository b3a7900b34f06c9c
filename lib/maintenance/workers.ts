import { hostname } from "node:os";
import type { Sql } from "../db/client";

/**
 * A worker process announces its graphile pool id, and keeps beating, so the sweep can release
 * its jobs if it dies.
 */
export async function beatWorker(sql: Sql, id: string): Promise<void> {
  await sql`insert into workers (id, hostname, pid) values (${id}, ${hostname()}, ${process.pid})
            on conflict (id) do update set heartbeat_at = now()`;
}

export async function unregisterWorker(sql: Sql, id: string): Promise<void> {
  await sql`delete from workers where id = ${id}`;
}
