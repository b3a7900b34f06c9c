import { describe, expect, it } from "vitest";
import { QUEUE_KINDS } from "../db/schema/messages";
import { kindsOfWake, wakePayload } from "./index";

describe("a wake-up's payload", () => {
  it("names the queue kinds that came due, and reads back as them", () => {
    expect(wakePayload([QUEUE_KINDS.recovery])).toBe("2");
    expect(kindsOfWake(wakePayload([QUEUE_KINDS.scheduled, QUEUE_KINDS.manual]))).toEqual([QUEUE_KINDS.scheduled, QUEUE_KINDS.manual]);
  });

  it("stands for every kind when empty, or when it names none this release knows (a newer one's)", () => {
    expect(wakePayload()).toBe("");
    for (const payload of [undefined, "", "7", "recovery", ","]) expect(kindsOfWake(payload)).toBeUndefined();
    // What it does know it keeps: a lane serving it still claims.
    expect(kindsOfWake("2,7")).toEqual([QUEUE_KINDS.recovery]);
  });
});
