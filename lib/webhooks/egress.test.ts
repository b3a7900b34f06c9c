import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver } from "../../tests/helpers/receiver";
import { postWebhook, type EgressPolicy } from "./egress";
import { parseCidrList } from "./url-safety";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver((req, res) => {
    if (req.url === "/redirect") res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    else res.writeHead(200).end("ok");
  });
});
afterAll(() => receiver.close());

const guarded: EgressPolicy = { allowHttp: true, allowPrivate: false, allowCidrs: [] };
const open: EgressPolicy = { ...guarded, allowPrivate: true };
const post = (url: string, policy: EgressPolicy = guarded) =>
  postWebhook({ url, headers: { "content-type": "application/json" }, body: "{}", timeoutMs: 2000, bodyLimit: 1024, policy });

describe("the egress guard at send time", () => {
  it.each([
    "127.0.0.1", "127.1", "2130706433", "0x7f000001", "[::1]", "[::ffff:127.0.0.1]", "0.0.0.0", "localhost",
  ])("refuses %s and never connects", async (host) => {
    const before = receiver.received.length;
    const result = await post(`http://${host}:${receiver.port}/hook`);
    expect(result).toMatchObject({ statusCode: null, error: "forbidden_address" });
    expect(receiver.received.length).toBe(before);
  });

  it.each(["169.254.169.254", "10.0.0.1", "172.16.0.1", "192.168.1.1", "100.64.0.1", "[fd00::1]", "[64:ff9b::7f00:1]"])(
    "refuses the private or metadata address %s without a connection attempt",
    async (host) => {
      const result = await post(`http://${host}:${receiver.port}/`);
      // Only the vetting before any socket answers this: a connection attempt would end in a
      // timeout or a refusal instead.
      expect(result.error).toBe("forbidden_address");
    },
  );

  it("checks the address a name resolves to, not the name", async () => {
    const before = receiver.received.length;
    const rebinding: EgressPolicy = { ...guarded, resolve: async () => ["93.184.216.34", "127.0.0.1"] };
    const result = await post(`http://innocent.example:${receiver.port}/`, rebinding);
    expect(result.error).toBe("forbidden_address");
    expect(result.errorDetail).toMatch(/127\.0\.0\.1/);
    const loopbackOnly: EgressPolicy = { ...guarded, resolve: async () => ["127.0.0.1"] };
    expect((await post(`http://innocent.example:${receiver.port}/`, loopbackOnly)).error).toBe("forbidden_address");
    expect(receiver.received.length).toBe(before);
  });

  it.each(["::ffff:0:7f00:1", "::ffff:0:a9fe:a9fe", "64:ff9b:1:a9fe:a9:fe00::", "64:ff9b::a9fe:a9fe", "::a9fe:a9fe", "2002:a9fe:a9fe::", "not-an-ip"])(
    "fails the attempt, never throws, when a name resolves to %s",
    async (address) => {
      const policy: EgressPolicy = { ...guarded, allowCidrs: parseCidrList("127.0.0.0/8"), resolve: async () => [address] };
      const result = await post(`http://poisoned.example:${receiver.port}/`, policy);
      expect(result).toMatchObject({ statusCode: null, error: "forbidden_address" });
    },
  );

  it("fails the attempt when the resolver itself throws or answers nothing", async () => {
    const throwing: EgressPolicy = { ...guarded, resolve: () => { throw new TypeError("resolver broke"); } };
    expect((await post(`http://broken.example:${receiver.port}/`, throwing)).error).toBe("network_error");
    const empty: EgressPolicy = { ...guarded, resolve: async () => [] };
    expect((await post(`http://empty.example:${receiver.port}/`, empty)).error).toBe("dns_error");
  });

  it("connects to the vetted address when allowed, keeping the Host header", async () => {
    const allowed: EgressPolicy = { ...guarded, allowCidrs: parseCidrList("127.0.0.0/8"), resolve: async () => ["127.0.0.1"] };
    const result = await post(`http://hooks.customer.example:${receiver.port}/in`, allowed);
    expect(result).toMatchObject({ statusCode: 200, error: null, responseBody: "ok" });
    expect(receiver.received.at(-1)!.headers.host).toBe(`hooks.customer.example:${receiver.port}`);
    expect((await post(`http://127.0.0.1:${receiver.port}/`, open)).statusCode).toBe(200);
  });

  it("does not follow a redirect to the metadata service", async () => {
    const result = await post(`http://127.0.0.1:${receiver.port}/redirect`, open);
    expect(result.statusCode).toBe(302);
    expect(result.headers.location).toContain("169.254.169.254");
  });

  it("names DNS failures and refused connections", async () => {
    // A real lookup: where the resolver cannot be reached, it gives up (EAI_AGAIN) after its own 5 s.
    const unknown = { url: "http://does-not-exist.invalid/", headers: {}, body: "{}", timeoutMs: 20_000, bodyLimit: 1024, policy: open };
    expect((await postWebhook(unknown)).error).toBe("dns_error");
    const closed = await startReceiver();
    const port = closed.port;
    await closed.close();
    expect((await post(`http://127.0.0.1:${port}/`, open)).error).toBe("connection_refused");
  });

  it("holds ALLOWED_ENDPOINT_CIDRS to its ranges, for literal addresses and resolved names alike", async () => {
    const policy: EgressPolicy = { ...guarded, allowCidrs: parseCidrList("10.20.0.0/16,127.0.0.0/8"), resolve: async (name) => [name === "near.example" ? "127.0.0.1" : "10.21.0.1"] };
    expect((await post(`http://127.0.0.1:${receiver.port}/`, policy)).statusCode).toBe(200);
    expect((await post(`http://near.example:${receiver.port}/`, policy)).statusCode).toBe(200);
    expect((await post(`http://far.example:${receiver.port}/`, policy)).error).toBe("forbidden_address");
    expect((await post(`http://10.21.0.1:${receiver.port}/`, policy)).error).toBe("forbidden_address");
    expect((await post(`http://169.254.169.254:${receiver.port}/`, policy)).error).toBe("forbidden_address");
  });

  it("refuses plain http at send time when ALLOW_HTTP_ENDPOINTS is off, without connecting", async () => {
    const before = receiver.received.length;
    const result = await post(`http://127.0.0.1:${receiver.port}/`, { ...open, allowHttp: false });
    expect(result).toMatchObject({ statusCode: null, error: "http_not_allowed" });
    expect(receiver.received.length).toBe(before);
  });
});
