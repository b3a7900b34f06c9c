import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../lib/crypto/encryption";
import { getSql } from "../../lib/db/client";
import { sweep } from "../../lib/maintenance/sweep";
import { systemCtx } from "../../lib/open-ctx";
import { expirePortalAccess, PORTAL_ACCESS_GRACE_MS } from "../../lib/retention/expire-portal-access";
import { apiClient, call, type Api } from "../helpers/api";
import { createConsumer } from "../helpers/fixtures";
import { mintPortalLink, portalSession } from "../helpers/portal";

/**
 * The sweep removes portal sessions and links (one-time tokens, used or not) once they are past
 * their expiry by more than the grace, in bounded batches; live ones and those still within the
 * grace stay.
 */
let api: Api;
let consumer: string;
const sql = () => getSql();

// Moves a row's expiry `agoMs` into the past, as time passing would.
const expire = (table: "portal_sessions" | "portal_tokens", hash: string, agoMs: number) =>
  sql()`update ${sql()(table)} set expires_at = now() - ${agoMs} * interval '1 millisecond' where token_hash = ${hash}`;
const exists = async (table: "portal_sessions" | "portal_tokens", hash: string) =>
  (await sql()`select 1 from ${sql()(table)} where token_hash = ${hash}`).length === 1;

beforeAll(async () => {
  api = await apiClient();
  consumer = (await createConsumer(api, {}, "sweep")).uid;
});

describe("the sweep of expired portal access", () => {
  it("deletes sessions and links expired past the grace, keeps the rest", async () => {
    const long = PORTAL_ACCESS_GRACE_MS + 60_000;
    const old = await portalSession(api, consumer); // its link is used, its session expired long ago
    const recent = await portalSession(api, consumer); // expired a moment ago: within the grace
    const live = await portalSession(api, consumer);
    const unusedOld = await mintPortalLink(api, consumer);
    const unusedLive = await mintPortalLink(api, consumer);
    await expire("portal_sessions", sha256Hex(old.token), long);
    await expire("portal_tokens", sha256Hex(old.linkToken), long);
    await expire("portal_tokens", sha256Hex(unusedOld), long);
    await expire("portal_sessions", sha256Hex(recent.token), 1_000);
    await expire("portal_tokens", sha256Hex(recent.linkToken), 1_000);

    // Expired is refused at once, swept or not.
    expect((await call("GET", `/api/v1/consumers/${consumer}`, { key: old.token })).status).toBe(401);
    expect((await call("GET", `/api/v1/consumers/${consumer}`, { key: recent.token })).status).toBe(401);

    const result = await sweep({ ctx: systemCtx() });
    expect(result.retention.removed.portal_sessions).toBeGreaterThanOrEqual(1);
    expect(result.retention.removed.portal_tokens).toBeGreaterThanOrEqual(2);

    expect(await exists("portal_sessions", sha256Hex(old.token))).toBe(false);
    expect(await exists("portal_tokens", sha256Hex(old.linkToken))).toBe(false);
    expect(await exists("portal_tokens", sha256Hex(unusedOld))).toBe(false);
    expect(await exists("portal_sessions", sha256Hex(recent.token))).toBe(true);
    expect(await exists("portal_tokens", sha256Hex(recent.linkToken))).toBe(true);
    expect(await exists("portal_sessions", sha256Hex(live.token))).toBe(true);
    expect(await exists("portal_tokens", sha256Hex(live.linkToken))).toBe(true);
    expect(await exists("portal_tokens", sha256Hex(unusedLive))).toBe(true);
    expect((await call("GET", `/api/v1/consumers/${consumer}`, { key: live.token })).status).toBe(200);
  });

  it("works in bounded batches and stops at its deadline, leaving the rest for the next sweep", async () => {
    const sessions = await Promise.all(Array.from({ length: 5 }, () => portalSession(api, consumer)));
    for (const s of sessions) await expire("portal_sessions", sha256Hex(s.token), PORTAL_ACCESS_GRACE_MS + 60_000);
    // A deadline already passed: one batch of 2, then it stops with more due.
    const first = await expirePortalAccess({ ctx: systemCtx(), deadline: 0, batchSize: 2 });
    expect(first).toEqual({ removed: { portal_sessions: 2 }, more: true });
    const rest = await expirePortalAccess({ ctx: systemCtx(), deadline: Date.now() + 60_000, batchSize: 2 });
    expect(rest.more).toBe(false);
    expect(rest.removed.portal_sessions).toBe(3);
    for (const s of sessions) expect(await exists("portal_sessions", sha256Hex(s.token))).toBe(false);
  });
});
