import { describe, expect, it } from "vitest";
import { ChecksPerClient } from "./checks-per-client";

describe("ChecksPerClient", () => {
  it("lets each client have perClient in progress, and holds entries only for clients with one in progress, at most maxClients", () => {
    const checks = new ChecksPerClient(2, 2);
    expect([checks.enter("a"), checks.enter("a"), checks.enter("a")]).toEqual([true, true, false]);
    checks.leave("a");
    expect(checks.enter("a")).toBe(true);
    expect(checks.enter("b")).toBe(true);
    // Two clients in progress: a third is refused until one of them is done.
    expect(checks.enter("c")).toBe(false);
    checks.leave("b");
    expect(checks.enter("c")).toBe(true);
  });
});
