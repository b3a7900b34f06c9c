import { describe, expect, it } from "vitest";
import { apiError, apiKey, sdkServer, SDKS, type Sdk } from "./sdks";

// A tiny per-credential rate, so a burst of SDK calls meets it (this file's process only).
process.env.API_RATE_LIMIT_PER_SECOND = "3";

/** Over the API rate, the Svix surface answers 429 `rate_limited` as JSON with Retry-After; the SDKs do not retry it. */
const server = sdkServer();

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))("%s", (_name, sdk: Sdk) => {
  it("answers a burst past the rate with an ApiException 429 carrying Retry-After", async () => {
    const svix = server.client(sdk, await apiKey());
    const answers = await Promise.allSettled(Array.from({ length: 12 }, () => svix.application.list({ limit: 1 })));
    const refused = answers.filter((a): a is PromiseRejectedResult => a.status === "rejected").map((a) => a.reason as unknown);
    expect(refused.length).toBeGreaterThan(0);
    const error = await apiError(sdk, Promise.reject(refused[0]));
    expect(error.code).toBe(429);
    expect(error.body.code).toBe("rate_limited");
    expect(Number(error.headers["retry-after"])).toBeGreaterThan(0);
  });
});
