import { afterEach, describe, expect, it, vi } from "vitest";
import { getSql } from "../../lib/db/client";
import { systemCtx } from "../../lib/open-ctx";
import { authenticateApiKey } from "../../lib/api-keys/authenticate-api-key";
import { createApiKey } from "../../lib/api-keys/create-api-key";

const lastUsed = async (id: string) =>
  (await getSql()<{ at: Date | null }[]>`select last_used_at as at from api_keys where id = ${id}`)[0]!.at;

afterEach(() => {
  vi.useRealTimers();
});

describe("authenticateApiKey", () => {
  it("marks a key used at most once a minute by the database's clock, whatever the web host's says", async () => {
    const { id, key } = await createApiKey({ ctx: systemCtx(), input: { name: "clock" } });
    expect(await authenticateApiKey({ ctx: systemCtx(), token: key })).toEqual({ id, name: "clock" });
    const first = await lastUsed(id);
    expect(first).not.toBeNull();
    // A web host whose clock runs two minutes ahead of the database's.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 120_000);
    expect(await authenticateApiKey({ ctx: systemCtx(), token: key })).toEqual({ id, name: "clock" });
    expect(await lastUsed(id)).toEqual(first);
    // A minute later by the database's clock, it is marked again.
    await getSql()`update api_keys set last_used_at = last_used_at - interval '61 seconds' where id = ${id}`;
    await authenticateApiKey({ ctx: systemCtx(), token: key });
    expect((await lastUsed(id))!.getTime()).toBeGreaterThan(first!.getTime() - 1000);
  });

  it("finds no key for a revoked, unknown or malformed token", async () => {
    const { key } = await createApiKey({ ctx: systemCtx(), input: { name: "gone" } });
    await getSql()`update api_keys set revoked_at = now() where name = 'gone'`;
    expect(await authenticateApiKey({ ctx: systemCtx(), token: key })).toBeNull();
    expect(await authenticateApiKey({ ctx: systemCtx(), token: "sk_unknown" })).toBeNull();
    expect(await authenticateApiKey({ ctx: systemCtx(), token: "not-a-key" })).toBeNull();
  });
});
