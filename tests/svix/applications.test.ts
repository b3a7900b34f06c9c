import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { sweep } from "../../lib/maintenance/sweep";
import { systemCtx } from "../../lib/open-ctx";
import { apiError, sdkServer, SDKS, upsert, type Sdk } from "./sdks";

/**
 * Applications (our consumers) through the official svix SDKs, 1.x and 2.x, against the app's
 * route handlers on a real HTTP server.
 */
const server = sdkServer();

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (name, sdk: Sdk) => {
  const svix = () => server.client(sdk);
  const tag = name.replace(/\W/g, "");

  it("answers health with 204", async () => {
    await expect(svix().health.get()).resolves.toBeFalsy();
  });

  it("creates, gets, gets-or-creates, replaces, patches and deletes an application", async () => {
    const uid = `acme-${tag}`;
    const created = await svix().application.create({ name: "Acme", uid, metadata: { plan: "pro" }, throttleRate: 20 });
    expect(created).toMatchObject({ uid, name: "Acme", metadata: { plan: "pro" }, throttleRate: 20 });
    expect(created.id).toMatch(/^con_/);
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(Number.isNaN(created.createdAt.getTime())).toBe(false);

    // By id or uid.
    expect((await svix().application.get(created.id)).uid).toBe(uid);
    expect((await svix().application.get(uid)).id).toBe(created.id);

    // getOrCreate answers the existing one; create again is a 409 conflict.
    expect((await svix().application.getOrCreate({ name: "Other", uid })).id).toBe(created.id);
    const conflict = await apiError(sdk, svix().application.create({ name: "Again", uid }));
    expect(conflict.code).toBe(409);
    expect(conflict.body.code).toBe("conflict");

    // PUT replaces whole: metadata and throttleRate left out are gone.
    const replaced = await upsert<typeof created>(svix().application, uid, { name: "Acme Inc", uid });
    expect(replaced).toMatchObject({ id: created.id, name: "Acme Inc", metadata: {}, throttleRate: null });

    // PATCH changes what it names; null unsets.
    const patched = await svix().application.patch(uid, { metadata: { tier: "gold" }, throttleRate: 5 });
    expect(patched).toMatchObject({ name: "Acme Inc", metadata: { tier: "gold" }, throttleRate: 5 });
    const unset = await svix().application.patch(uid, { throttleRate: null });
    expect(unset.throttleRate).toBeNull();

    await svix().application.delete(created.id);
    expect((await apiError(sdk, svix().application.get(uid))).code).toBe(404);
  });

  it("makes an application on PUT of a uid none has (201), and one without a uid is known by its id", async () => {
    const uid = `upserted-${tag}`;
    const made = await upsert<{ id: string; uid: string | null }>(svix().application, uid, { name: "Upserted" });
    expect(made.uid).toBe(uid);
    const anonymous = await svix().application.create({ name: "No uid" });
    expect(anonymous.uid ?? null).toBeNull();
    expect((await svix().application.get(anonymous.id)).name).toBe("No uid");
    expect((await apiError(sdk, upsert(svix().application, "con_00000000000000000000000000", { name: "x" }))).code).toBe(404);
  });

  it("refuses what Svix refuses with 422 and the field's loc", async () => {
    for (const uid of ["app_imported", "con_ours", "has space"]) {
      const error = await apiError(sdk, svix().application.create({ name: "Bad", uid }));
      expect(error.code).toBe(422);
      expect(error.body.detail[0]).toMatchObject({ loc: ["body", "uid"], type: "value_error" });
    }
    const noName = await apiError(sdk, svix().application.create({ name: "", uid: `empty-${tag}` }));
    expect(noName.body.detail[0].loc).toEqual(["body", "name"]);
  });

  it("lists applications to done, oldest first by default, newest first when asked, capped at 250", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await svix().application.create({ name: `List ${i}`, uid: `list-${tag}-${i}` })).id);
    const seen: string[] = [];
    let iterator: string | null | undefined;
    let pages = 0;
    for (;;) {
      const page = await svix().application.list({ limit: 2, iterator });
      pages += 1;
      seen.push(...page.data.map((a) => a.id));
      expect(page.iterator).toBe(page.data.at(-1)?.id ?? null);
      if (page.done) break;
      iterator = page.iterator;
    }
    expect(pages).toBeGreaterThan(2);
    expect(seen.filter((id) => ids.includes(id))).toEqual(ids);
    expect(seen).toEqual([...seen].sort());
    const newest = await svix().application.list({ limit: 3, order: "descending" as never });
    expect(newest.data.map((a) => a.id)).toEqual([...newest.data.map((a) => a.id)].sort().reverse());
    // Paging back from the second page gives the first.
    const first = await svix().application.list({ limit: 2 });
    const second = await svix().application.list({ limit: 2, iterator: first.iterator });
    const back = await svix().application.list({ limit: 2, iterator: second.prevIterator });
    expect(back.data.map((a) => a.id)).toEqual(first.data.map((a) => a.id));
    const capped = await svix().application.list({ limit: 1000 });
    expect(capped.data.length).toBeLessThanOrEqual(250);
  });

  it("excludes applications without endpoints when asked", async () => {
    const page = await svix().application.list({ excludeAppsWithNoEndpoints: true, limit: 250 });
    expect(page.data).toEqual([]);
  });

  it("is idempotent by Idempotency-Key: a repeat replays the first answer, one application made", async () => {
    const key = `idem-${tag}`;
    const first = await svix().application.create({ name: "Once", uid: `once-${tag}` }, { idempotencyKey: key });
    const again = await svix().application.create({ name: "Twice?", uid: `twice-${tag}` }, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    expect(again.name).toBe("Once");
    expect((await apiError(sdk, svix().application.get(`twice-${tag}`))).code).toBe(404);
  });

  it("answers two concurrent requests with one key with the same application", async () => {
    const key = `race-${tag}`;
    const [a, b] = await Promise.all([
      svix().application.create({ name: "Race", uid: `race-${tag}` }, { idempotencyKey: key }),
      svix().application.create({ name: "Race", uid: `race-${tag}` }, { idempotencyKey: key }),
    ]);
    expect(a.id).toBe(b.id);
  });

  it("keeps an answer for IDEMPOTENCY_TTL: an expired key makes a new application, and the sweep drops expired keys", async () => {
    const key = `expiring-${tag}`;
    const first = await svix().application.create({ name: "First", uid: `exp1-${tag}` }, { idempotencyKey: key });
    // As if the window had passed.
    await getSql()`update api_idempotency set expires_at = now() - interval '1 second' where state = 'done'`;
    const second = await svix().application.create({ name: "Second", uid: `exp2-${tag}` }, { idempotencyKey: key });
    expect(second.id).not.toBe(first.id);
    await getSql()`update api_idempotency set expires_at = now() - interval '1 second'`;
    await sweep({ ctx: systemCtx() });
    const [left] = await getSql()<{ n: number }[]>`select count(*)::int as n from api_idempotency`;
    expect(left!.n).toBe(0);
  });

  it("does not keep an error: the same key may succeed once the cause is gone", async () => {
    const key = `retry-${tag}`;
    const uid = `retry-${tag}`;
    const taken = await svix().application.create({ name: "Holder", uid: `${uid}-holder` });
    const failed = await apiError(sdk, svix().application.create({ name: "Clash", uid: `${uid}-holder` }, { idempotencyKey: key }));
    expect(failed.code).toBe(409);
    await svix().application.delete(taken.id);
    const ok = await svix().application.create({ name: "Clash", uid: `${uid}-holder` }, { idempotencyKey: key });
    expect(ok.name).toBe("Clash");
  });

  it("answers every error as JSON: unknown token 401, unserved operation 501 with why, inside the Svix folders or out", async () => {
    const stranger = server.client(sdk, "sk_unknown");
    const unauthorized = await apiError(sdk, stranger.application.list());
    expect(unauthorized.code).toBe(401);
    expect(unauthorized.body.code).toBe("authentication_failed");
    // Outside the Svix folders (our own catch-all's path): Svix's 501 still, not our 404.
    const outside = await apiError(sdk, svix().statistics.aggregateEventTypes());
    expect(outside.code).toBe(501);
    expect(outside.body).toEqual({ code: "not_implemented", detail: expect.stringMatching(/aggregateEventTypes.*: .+ See docs\/svix.md\.$/) });
    const known = await svix().application.create({ name: "Known", uid: `known-${tag}` });
    const unserved = await apiError(sdk, svix().integration.list(known.id));
    expect(unserved.code).toBe(501);
    expect(unserved.body.code).toBe("not_implemented");
    // Svix Ingest, on a base path of its own (/ingest/api/v1): its 501 and why, after the same authentication.
    const ingest = await apiError(sdk, svix().ingest.source.list());
    expect(ingest.code).toBe(501);
    expect(ingest.body).toEqual({ code: "not_implemented", detail: expect.stringMatching(/^Svix Ingest .*: Svix Ingest receives webhooks into Svix .* receives none\. See docs\/svix.md\.$/) });
    const ingestUnauthorized = await apiError(sdk, stranger.ingest.source.list());
    expect(ingestUnauthorized.code).toBe(401);
    expect(ingestUnauthorized.body.code).toBe("authentication_failed");
  });
});
