import amqplib, { type ChannelModel, type ConfirmChannel } from "amqplib";
import { z } from "zod";
import { classifyNetworkError } from "../webhooks/egress";
import { BROKER_IDLE_MS, brokerFailure, brokerSend, brokerSuccess, brokerVerdict, connectionPool, messageFields, sealedUrl, type BrokerAddress, type BrokerError } from "./broker";
import { defineDestination, type SendResult } from "./destination";

const names = { exchange: z.string().max(255), routing_key: z.string().max(255) };

/** An amqp endpoint's target as the API takes it: the broker URL (credentials in it) and where to publish. "" is the default exchange, where the routing key names a queue. */
export const amqpTargetInput = z.strictObject({ url: z.string().min(1).max(2048), ...names });

/** As it is stored (endpoints.target): the URL masked, and sealed (broker.ts). */
export const amqpTarget = z.object({ ...sealedUrl, ...names });
export type AmqpTarget = z.infer<typeof amqpTarget>;

export type AmqpRequest = { sealed: string; exchange: string; routingKey: string; messageId: string; headers: Record<string, string>; body: string };

/** A connection and its confirm channel; messages the broker returned as unroutable, by message id, until their confirm comes. */
type Publisher = { model: ChannelModel; channel: ConfirmChannel; returned: Set<string>; broken: Error | null };

const pool = connectionPool<Publisher>({
  idleMs: BROKER_IDLE_MS,
  close: (publisher) => void publisher.model.close().catch(() => {}),
  alive: (publisher) => publisher.broken === null,
});

/** Closes every pooled connection (the worker's shutdown, tests). */
export const closeAmqpConnections = () => pool.closeAll();

async function openPublisher(where: BrokerAddress, timeoutMs: number): Promise<Publisher> {
  const { url } = where;
  const model = await amqplib.connect(
    {
      protocol: url.protocol.replace(":", ""),
      hostname: where.address,
      port: url.port ? Number(url.port) : where.tls ? 5671 : 5672,
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      vhost: url.pathname.length > 1 ? decodeURIComponent(url.pathname.slice(1)) : "/",
      heartbeat: 30,
    },
    { timeout: timeoutMs, ...(where.servername ? { servername: where.servername } : {}) },
  );
  const publisher: Publisher = { model, channel: undefined as unknown as ConfirmChannel, returned: new Set(), broken: null };
  // Without a listener an 'error' event would end the process; a broken connection is dropped instead.
  model.on("error", (error: Error) => (publisher.broken ??= error));
  model.on("close", () => (publisher.broken ??= new Error("the connection to the broker closed")));
  try {
    publisher.channel = await model.createConfirmChannel();
  } catch (error) {
    void model.close().catch(() => {});
    throw error;
  }
  publisher.channel.on("error", (error: Error) => (publisher.broken ??= error));
  publisher.channel.on("close", () => (publisher.broken ??= new Error("the broker closed the channel")));
  publisher.channel.on("return", (message: { properties: { messageId?: string } }) => {
    if (message.properties.messageId) publisher.returned.add(message.properties.messageId);
  });
  return publisher;
}

/** What an amqplib error means: the reply code the broker closed with, else the network's. */
function classifyAmqpError(error: unknown): { error: BrokerError; detail: string } {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: string };
  const text = message ?? String(error);
  if (/ACCESS[-_]REFUSED|403/.test(text) || code === 403) return { error: "auth_failed", detail: text };
  if (typeof code === "number" || /Channel closed by server|Connection closed|Handshake terminated/.test(text)) return { error: "broker_error", detail: text };
  const network = classifyNetworkError(error);
  return { error: network.kind, detail: network.detail };
}

function publish(publisher: Publisher, request: AmqpRequest): Promise<SendResult> {
  const started = performance.now();
  return new Promise<SendResult>((resolve) => {
    publisher.returned.delete(request.messageId);
    const settle = (error: unknown) => {
      const returned = publisher.returned.delete(request.messageId);
      if (error) {
        // A nack comes as an error without a reply code; a closed channel names the broker's reason.
        const nacked = error instanceof Error && /nack/i.test(error.message);
        resolve(
          nacked
            ? brokerFailure("broker_rejected", "the broker refused the message (nack): a queue it routes to is full (x-overflow reject-publish) or cannot take it", started)
            : refusedWith(classifyAmqpError(publisher.broken ?? error), started),
        );
      } else if (returned) {
        resolve(brokerFailure("unroutable", `no queue is bound to exchange "${request.exchange}" for routing key "${request.routingKey}": the broker returned the message`, started));
      } else {
        resolve(brokerSuccess("basic.ack", started));
      }
    };
    try {
      publisher.channel.publish(
        request.exchange,
        request.routingKey,
        Buffer.from(request.body),
        { persistent: true, mandatory: true, contentType: "application/json", messageId: request.messageId, headers: request.headers },
        settle,
      );
    } catch (error) {
      settle(error);
    }
  });
}

const refusedWith = (refused: { error: BrokerError; detail: string }, started: number) => brokerFailure(refused.error, refused.detail, started);

/**
 * Publishes to an exchange with a routing key, over a confirm channel: success is the broker's
 * publisher confirm (basic.ack) for a message it routed to a queue. Persistent and mandatory: a
 * message no queue takes comes back (`unroutable`), a nack is `broker_rejected`, no confirm within
 * DELIVERY_TIMEOUT is `timeout`. The Standard Webhooks headers are the message's headers; the body
 * is the payload.
 */
export const amqp = defineDestination<AmqpTarget, AmqpRequest>({
  kind: "amqp",
  target: amqpTarget,
  broker: { input: amqpTargetInput, schemes: { plain: "amqp", tls: "amqps" } },
  describe: (target) => `${target.url} (exchange "${target.exchange}", routing key "${target.routing_key}")`,
  prepare(delivery, target, secrets) {
    const { fields, loggedHeaders } = messageFields(delivery, secrets);
    return {
      request: { sealed: target.url_ciphertext, exchange: target.exchange, routingKey: target.routing_key, messageId: delivery.messageId, headers: fields, body: delivery.payload },
      loggedHeaders,
    };
  },
  send: brokerSend<Publisher, AmqpRequest>({
    plain: "amqp",
    pool,
    open: openPublisher,
    async deliver(publisher, request, _started, drop) {
      const result = await publish(publisher, request);
      if (publisher.broken) drop();
      return result;
    },
    refusal: classifyAmqpError,
    awaited: "publisher confirm",
  }),
  classify: brokerVerdict,
});
