import { gt, isNull } from "drizzle-orm";
import type { Executor } from "../db/client";
import { apiKeys, portalSessions } from "../db/schema";

const REFRESH_AFTER_MS = 1_000;

type Snapshot = { at: number; hashes: Set<string> };

/**
 * The hashes of every active API key and portal session, read at most once a second, for a client
 * whose failed authentications are over their limit: its token is looked up only when it is among
 * them. A flood of unknown tokens then costs one read a second, and a valid key this process has
 * not seen yet (new, or after a restart) still gets in, within a second of its creation. A hash
 * that fails its lookup after all (revoked since the read) leaves the snapshot, so it costs one
 * lookup, not one per request.
 */
export class ActiveCredentials {
  private snapshot: Snapshot | undefined;
  private refreshing: Promise<Snapshot> | undefined;

  async has(db: Executor, tokenHash: string, now = Date.now()): Promise<boolean> {
    let snapshot = this.snapshot;
    if (!snapshot || now - snapshot.at > REFRESH_AFTER_MS) {
      this.refreshing ??= this.read(db, now).finally(() => (this.refreshing = undefined));
      snapshot = this.snapshot = await this.refreshing;
    }
    return snapshot.hashes.has(tokenHash);
  }

  forget(tokenHash: string): void {
    this.snapshot?.hashes.delete(tokenHash);
  }

  private async read(db: Executor, now: number): Promise<Snapshot> {
    const [keys, sessions] = await Promise.all([
      db.select({ hash: apiKeys.hash }).from(apiKeys).where(isNull(apiKeys.revokedAt)),
      db.select({ hash: portalSessions.tokenHash }).from(portalSessions).where(gt(portalSessions.expiresAt, new Date(now))),
    ]);
    return { at: now, hashes: new Set([...keys.map((k) => k.hash), ...sessions.map((s) => s.hash)]) };
  }
}
