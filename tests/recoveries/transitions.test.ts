import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { RECOVERY_STATES } from "../../lib/db/schema";
import { moveRun, RECOVERY_TRANSITIONS, type RecoveryMove } from "../../lib/recoveries/transitions";
import { apiClient } from "../helpers/api";
import { consumerWithEndpoint } from "../helpers/fixtures";
import { sourceFiles } from "../helpers/sources";

// A recovery run's state changes in one place, lib/recoveries/transitions.ts, and only along its table.

describe("recovery run states", () => {
  it("are written nowhere but moveRun", () => {
    const writes = sourceFiles("lib").flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return /update\s+recoveries\s+(\w+\s+)?set\s+state\s*=/i.test(text) ? [file] : [];
    });
    expect(writes).toEqual([path.join("lib", "recoveries", "transitions.ts")]);
  });

  it("move only from the states the table allows, into states that exist", async () => {
    for (const t of Object.values(RECOVERY_TRANSITIONS)) expect(RECOVERY_STATES).toContain(t.to);
    const api = await apiClient();
    const { endpointId: endpoint } = await consumerWithEndpoint(api, "https://hooks.example.test/r", { consumer: { uid: "runs", name: "Runs" } });
    const run = await api.post(`/api/v1/endpoints/${endpoint}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString() });
    expect(run.status).toBe(202);
    const id = run.body.id as string;
    const state = async () => (await getSql()<{ state: string }[]>`select state from recoveries where id = ${id}`)[0]!.state;
    expect(await state()).toBe("planned");
    const tryMove = (move: RecoveryMove) => moveRun(getSql(), id, move);
    expect(await tryMove("resume")).toBe(false);
    expect(await tryMove("pass_canary")).toBe(false);
    expect(await state()).toBe("planned");
    expect(await tryMove("pause")).toBe(true);
    expect(await state()).toBe("paused");
    expect(await tryMove("complete")).toBe(false);
    expect(await tryMove("resume")).toBe(true);
    expect(await state()).toBe("running");
    expect(await tryMove("cancel")).toBe(true);
    expect(await tryMove("cancel")).toBe(false);
    expect(await state()).toBe("canceled");
  });
});
