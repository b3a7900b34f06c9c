import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { decrypt } from "../crypto/encryption";
import { amqp } from "./amqp";
import { connectionPool, maskBrokerUrl, messageFields, sealTarget, showTarget } from "./broker";
import { redisStream } from "./redis-stream";

const KEY = Buffer.alloc(32, 7);
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

describe("a broker URL", () => {
  it("is shown with its password masked, its user name kept", () => {
    expect(maskBrokerUrl("amqps://billing:s3cret@mq.example.com:5671/prod")).toBe("amqps://billing:****@mq.example.com:5671/prod");
    expect(maskBrokerUrl("rediss://:p%40ss@cache.example.com/2")).toBe("rediss://:****@cache.example.com/2");
    expect(maskBrokerUrl("amqps://mq.example.com/")).toBe("amqps://mq.example.com/");
  });

  it("is stored sealed: the target keeps the masked URL and the ciphertext, the API shows the first only", () => {
    const sealed = sealTarget({ url: "amqps://u:pw@mq.example.com/", exchange: "x", routing_key: "k" }, KEY);
    expect(sealed).toMatchObject({ url: "amqps://u:****@mq.example.com/", exchange: "x", routing_key: "k" });
    expect(decrypt(sealed.url_ciphertext, [KEY])).toBe("amqps://u:pw@mq.example.com/");
    expect(showTarget(sealed)).toEqual({ url: "amqps://u:****@mq.example.com/", exchange: "x", routing_key: "k" });
    expect(amqp.describe(amqp.target.parse(sealed))).toBe('amqps://u:****@mq.example.com/ (exchange "x", routing key "k")');
  });
});

describe("a queue message's fields", () => {
  it("are the Standard Webhooks headers the standardwebhooks library verifies, without HTTP's own; a test send is marked", () => {
    const payload = '{"type":"invoice.paid"}';
    const { fields, loggedHeaders } = messageFields({ messageId: "msg_1", endpointId: "ep_1", payload, isTest: true }, [SECRET]);
    expect(Object.keys(fields).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-test", "webhook-timestamp"]);
    expect(new Webhook(SECRET).verify(payload, fields)).toEqual({ type: "invoice.paid" });
    expect(loggedHeaders).toEqual(fields);
    const sealed = redisStream.target.parse(sealTarget({ url: "rediss://:pw@r.example.com/", stream: "s", max_len: 10 }, KEY));
    expect(redisStream.prepare({ messageId: "msg_1", endpointId: "ep_1", payload, isTest: false }, sealed, [SECRET]).request).toMatchObject({ stream: "s", maxLen: 10, body: payload });
  });
});

describe("the connection pool", () => {
  const pool = () => {
    const opened: string[] = [];
    const closed: string[] = [];
    let onClose: (() => void) | null = null;
    const dead = new Set<string>();
    const p = connectionPool<string>({
      idleMs: 20,
      alive: (connection) => !dead.has(connection),
      close: (connection) => {
        closed.push(connection);
        onClose?.();
      },
    });
    const open = (name: string) => () => {
      opened.push(name);
      return Promise.resolve(name);
    };
    return { p, opened, closed, open, dead, nextClose: () => new Promise<void>((resolve) => (onClose = resolve)) };
  };

  it("opens one connection per endpoint and URL, reuses it, and replaces it when the URL changes", async () => {
    const { p, opened, closed, open } = pool();
    await p.use("ep_1", "sealed-a", open("a1"), async () => {});
    await p.use("ep_1", "sealed-a", open("a2"), async () => {});
    await p.use("ep_2", "sealed-a", open("b1"), async () => {});
    await p.use("ep_1", "sealed-b", open("a3"), async () => {});
    expect(opened).toEqual(["a1", "b1", "a3"]);
    await Promise.resolve();
    expect(closed).toEqual(["a1"]);
    p.closeAll();
  });

  it("does not hand out a connection the broker closed while it sat idle", async () => {
    const { p, opened, open, dead } = pool();
    await p.use("ep_1", "s", open("d1"), async () => {});
    dead.add("d1");
    let used = "";
    await p.use("ep_1", "s", open("d2"), async (connection) => void (used = connection));
    expect([opened, used]).toEqual([["d1", "d2"], "d2"]);
    p.closeAll();
  });

  it("closes a connection once it has been idle, and forgets one that failed to open or broke", async () => {
    const { p, opened, closed, open, nextClose } = pool();
    const idle = nextClose();
    await p.use("ep_1", "s", open("c1"), async () => {});
    await idle;
    expect(closed).toEqual(["c1"]);
    expect(p.size()).toBe(0);

    await expect(p.use("ep_1", "s", () => Promise.reject(new Error("refused")), async () => {})).rejects.toThrow("refused");
    expect(p.size()).toBe(0);
    await p.use("ep_1", "s", open("c2"), async (_c, drop) => drop());
    expect(p.size()).toBe(0);
    expect(opened).toEqual(["c1", "c2"]);
  });
});
