import { describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api";
import { consumerWithEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { runTestWorker } from "../helpers/worker";
import { getSql } from "../../lib/db/client";

// One retry, a second after a failed first attempt: only a future job wakes it.
process.env.DELIVERY_SCHEDULE = "0,1s";

/**
 * An idle worker costs the database next to nothing: graphile-worker's 50 workers no longer poll
 * every 250 ms (about 200 queries a second); jobs due later are woken by one timer per process.
 */
runTestWorker();

// Committed transactions in this test file's own database, as the statistics have them.
const commits = async () =>
  Number((await getSql()<{ n: string }[]>`select xact_commit::text as n from pg_stat_database where datname = current_database()`)[0]!.n);

describe("an idle worker", () => {
  it("commits a handful of transactions in three seconds, not hundreds", async () => {
    // Backends report their counts when they next work or, idle, after a few seconds: wait until
    // the start-up's own queries (each of the 50 graphile workers looks for a job once) are counted.
    const start = await commits();
    await waitFor(async () => (await commits()) >= start + 50, { timeout: 30_000, what: "the start-up's queries to be counted" });
    const before = await commits();
    // A window of time to count in, not a wait for something to happen.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const during = (await commits()) - before;
    // Polling at 250 ms this was about 600; now: a heartbeat, the alarm's safety look, the
    // minute's sweep perhaps, and what is left of the start-up's reporting.
    expect(during).toBeLessThan(40);
  });

  it("still runs what comes due later on its own: a retry a second after a failed attempt", async () => {
    const api = await apiClient();
    const receiver = await startReceiver((_req, res, _body, index) => res.writeHead(index === 0 ? 503 : 204).end());
    try {
      const { uid } = await consumerWithEndpoint(api, `${receiver.url}/hook`);
      await sendMessage(api, uid, { event_type: "a.b", payload: {} });
      // graphile's own poll would come ten minutes later.
      await waitFor(() => receiver.received.length === 2, { what: "the retry" });
      expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(1_000);
    } finally {
      await receiver.close();
    }
  });
});
