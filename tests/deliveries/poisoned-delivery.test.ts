import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSql } from "../../lib/db/client";
import { apiClient, type Api } from "../helpers/api";
import { withEnv } from "../helpers/env";
import { createConsumer, createEndpoint, sendMessage } from "../helpers/fixtures";
import { startReceiver, waitFor } from "../helpers/receiver";
import { spawnWorker } from "../helpers/worker-process";

/**
 * One delivery's inputs — its DNS answer, URL, headers, the receiver's bytes — come from whoever
 * runs that endpoint. None of them may take the worker down: each must end as that delivery's
 * failed attempt while every other tenant's deliveries go on. (An rfc6145 answer such as
 * `::ffff:0:7f00:1` used to throw inside the lookup, an unhandled rejection that ended the worker;
 * the lease brought the delivery back and the next worker died the same way.)
 */
process.env.DELIVERY_SCHEDULE = "0";
process.env.DELIVERY_TIMEOUT = "3s";

// 169.254.169.254 (the cloud metadata service) is refused by every policy, so none of these is
// ever connected to, and each IPv6 form is judged by the IPv4 address it carries.
const EMBEDDED_FORMS: Record<string, string> = {
  mapped: "::ffff:169.254.169.254",
  rfc6145: "::ffff:0:a9fe:a9fe",
  compatible: "::a9fe:a9fe",
  "nat64-wkp": "64:ff9b::a9fe:a9fe",
  "nat64-32": "64:ff9b:a9fe:a9fe::",
  "nat64-40": "64:ff9b:a9:fea9:fe::",
  "nat64-48": "64:ff9b:1:a9fe:a9:fe00::",
  "nat64-56": "64:ff9b:1:a9:fe:a9fe::",
  "nat64-64": "64:ff9b:1:0:a9:fea9:fe00:0",
  "nat64-96": "64:ff9b:1::a9fe:a9fe",
  "6to4": "2002:a9fe:a9fe::1",
  teredo: "2001:0:4136:e378:8000:63bf:5601:5601",
};

let api: Api;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let garbage: Server;
let garbagePort = 0;
const sockets = new Set<Socket>();

const uid = "poison";

beforeAll(async () => {
  api = await apiClient();
  await createConsumer(api, { uid });
  receiver = await startReceiver();
  // Answers any request with bytes that are not HTTP.
  garbage = createServer((socket) => {
    sockets.add(socket.on("close", () => sockets.delete(socket)).on("error", () => {}));
    socket.end("NOT HTTP AT ALL\u0000\r\n\r\n");
  });
  await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
  garbagePort = (garbage.address() as AddressInfo).port;
});
afterAll(async () => {
  await receiver.close();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => garbage.close(resolve));
});

describe("a poisoned delivery", () => {
  it("fails alone, as an attempt with an error, while the worker lives and delivers everyone else's", async () => {
    const endpoint = async (url: string) => (await createEndpoint(api, uid, url)).id;

    const dns: Record<string, string[] | "throw"> = { "healthy.example": ["127.0.0.1"], "garbage.example": ["127.0.0.1"] };
    const poisoned = new Map<string, string>();
    for (const [form, address] of Object.entries(EMBEDDED_FORMS)) {
      dns[`${form}.example`] = [address];
      poisoned.set(await endpoint(`http://${form}.example:${receiver.port}/`), `DNS answer ${address}`);
    }
    dns["not-an-address.example"] = ["not-an-address"];
    dns["no-answer.example"] = [];
    dns["resolver-throws.example"] = "throw";
    for (const host of ["not-an-address.example", "no-answer.example", "resolver-throws.example"]) {
      poisoned.set(await endpoint(`http://${host}:${receiver.port}/`), host);
    }
    poisoned.set(await endpoint(`http://garbage.example:${garbagePort}/`), "a response that is not HTTP");
    // Rows that validation would refuse today but an older release, or a hand edit, left behind.
    const badUrl = await endpoint(`http://healthy.example:${receiver.port}/bad-url`);
    await getSql()`update endpoints set url = 'http://[::1' where id = ${badUrl}`;
    poisoned.set(badUrl, "a URL that does not parse");
    const badHeader = await endpoint(`http://healthy.example:${receiver.port}/bad-header`);
    await getSql()`update endpoints set headers = ${getSql().json({ "x-split": "a\r\nx-injected: 1" })} where id = ${badHeader}`;
    poisoned.set(badHeader, "a header value with CR LF");
    // A destination kind this release does not know: a newer release's, left behind by a rollback.
    const unknownKind = await endpoint(`http://healthy.example:${receiver.port}/unknown-kind`);
    await getSql()`update endpoints set destination = 'carrier-pigeon', target = ${getSql().json({ loft: 7 })} where id = ${unknownKind}`;
    poisoned.set(unknownKind, "an unknown destination kind");
    const healthy = await endpoint(`http://healthy.example:${receiver.port}/ok`);

    // The worker's policy is the strict one; the name "healthy.example" answers 127.0.0.1, allowed.
    const worker = await spawnWorker({ ALLOW_PRIVATE_ENDPOINTS: "false", ALLOWED_ENDPOINT_CIDRS: "127.0.0.0/8" }, { dns });
    let exitCode: number | null | "running" = "running";
    void worker.exited.then((code) => (exitCode = code));
    try {
      const first = await sendMessage(api, uid, { event_type: "poison.test", payload: { n: 1 } });
      expect(first.deliveries).toBe(poisoned.size + 1);
      const outcomes = await waitFor(
        async () => {
          const rows = await getSql()<{ endpoint_id: string; status: string; error: string | null; error_detail: string | null }[]>`
            select d.endpoint_id, d.status, a.error, a.error_detail from deliveries d
            left join attempts a on a.delivery_id = d.id where d.message_id = ${first.id}`;
          return rows.every((row) => row.status !== "pending") ? rows : null;
        },
        { timeout: 60_000, what: "every delivery of the message ended", onTimeout: () => console.log(worker.output()) },
      );
      for (const row of outcomes) {
        if (row.endpoint_id === healthy) expect(row, "healthy endpoint").toMatchObject({ status: "succeeded", error: null });
        else expect(row, poisoned.get(row.endpoint_id)).toMatchObject({ status: "failed", error: expect.any(String) });
      }
      const kinds = Object.fromEntries(outcomes.map((row) => [poisoned.get(row.endpoint_id) ?? "healthy", row.error]));
      for (const address of Object.values(EMBEDDED_FORMS)) expect(kinds[`DNS answer ${address}`], address).toBe("forbidden_address");
      expect(kinds["not-an-address.example"]).toBe("forbidden_address");
      expect(kinds["no-answer.example"]).toBe("dns_error");
      expect(kinds["a URL that does not parse"]).toBe("invalid_url");
      expect(kinds["an unknown destination kind"]).toBe("internal_error");
      const [unknownAttempt] = await getSql()<{ url: string }[]>`select url from attempts where endpoint_id = ${unknownKind}`;
      expect(unknownAttempt).toEqual({ url: "carrier-pigeon" });
      // Nothing poisoned reached the receiver; the healthy delivery did.
      expect(receiver.received.map((r) => r.path)).toEqual(["/ok"]);

      // Still the same process, still delivering.
      await sendMessage(api, uid, { event_type: "poison.test", payload: { n: 2 } });
      await waitFor(() => receiver.received.length === 2, { timeout: 30_000, what: "the next message delivered" });
      expect(exitCode).toBe("running");
      expect(worker.output()).not.toMatch(/unhandled rejection|uncaught exception/);
    } finally {
      await worker.kill();
    }
  }, 120_000);
});

describe("IPv6 literals that embed a forbidden IPv4 address", () => {
  it.each([...Object.entries(EMBEDDED_FORMS), ["rfc6145 loopback", "::ffff:0:7f00:1"]])(
    "are refused at create time, %s (422, never 500)",
    async (_form, address) => {
      await withEnv({ ALLOW_PRIVATE_ENDPOINTS: "false" }, async () => {
        const res = await api.post(`/api/v1/consumers/${uid}/endpoints`, { url: `https://[${address}]/` });
        expect(res.status).toBe(422);
        expect(res.body.code).toBe("endpoint_url_forbidden");
      });
    },
  );
});
