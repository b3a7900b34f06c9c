/**
 * The worker's spans, wrapped around the delivery pipeline at its call sites (lib/deliveries/
 * worker/delivery-pump.ts, outcome-writer.ts): `delivery.claim` per claim, `delivery.attempt` per attempt (a
 * child of its claim, linked to the ingest span of its message), `delivery.outcomes` per group
 * commit (linked to the attempts it writes). Each helper is a plain call when tracing is off.
 */
import { contextWith, failSpan, inSpan, linkTo, SpanKind, startSpan, tracingOn, type Context, type Link, type SpanContext } from "./tracing";

/** What the attempts of one claimed batch hang from: the claim's span, and each message's ingest span. */
export type BatchTrace = { parent: Context; ingest: Map<string, string> };

/**
 * The claim in a `delivery.claim` span, which also reads the claimed messages' stored ingest
 * traceparents (`traceparents`, one query, only while tracing). Off: the claim as it is.
 */
export function claimInSpan<T extends { deliveries: readonly { message_id: string }[]; more: boolean }>(
  claim: () => Promise<T>,
  traceparents: (messageIds: string[]) => Promise<Map<string, string>>,
): Promise<T & { trace?: BatchTrace }> {
  if (!tracingOn()) return claim();
  return inSpan("delivery.claim", { kind: SpanKind.INTERNAL }, async (span) => {
    const claimed = await claim();
    span!.setAttributes({ "webhook_admin.claimed": claimed.deliveries.length, "webhook_admin.more": claimed.more });
    const ids = [...new Set(claimed.deliveries.map((d) => d.message_id))];
    const ingest = ids.length > 0 ? await traceparents(ids) : new Map<string, string>();
    return { ...claimed, trace: { parent: contextWith(span!), ingest } };
  });
}

type Attempted = { success: boolean; statusCode: number | null; error: string | null; attemptNumber: number };
/** `route.destination.kind`: where it goes (lib/destinations); HTTP's method is said only for http. */
type Delivery = { id: string; message_id: string; endpoint_id: string; route?: { destination?: { kind: string } } };

// The attempt's span context rides on its outcome under this key: a symbol, so it is copied with
// the outcome (`{ ...outcome, leaseToken }`) and never written, serialized or logged.
const ATTEMPT_SPAN = Symbol("webhook_admin.attempt_span");

/**
 * One attempt in a `delivery.attempt` span (kind client) under its claim's span, linked to the
 * ingest span of its message: the endpoint, the delivery, the message, the trigger, the attempt's
 * number, its HTTP status and error code (for a broker kind, the kind instead of HTTP's method) —
 * never the payload, the URL or any header.
 */
export function attemptInSpan<O extends Attempted>(batch: BatchTrace | undefined, delivery: Delivery, trigger: string, attempt: () => Promise<O>): Promise<O> {
  if (!batch || !tracingOn()) return attempt();
  const link = linkTo(batch.ingest.get(delivery.message_id));
  const kind = delivery.route?.destination?.kind ?? "http";
  const span = startSpan(
    "delivery.attempt",
    {
      kind: SpanKind.CLIENT,
      links: link ? [link] : [],
      attributes: {
        "webhook_admin.endpoint_id": delivery.endpoint_id,
        "webhook_admin.delivery_id": delivery.id,
        "webhook_admin.message_id": delivery.message_id,
        "webhook_admin.attempt.trigger": trigger,
        ...(kind === "http" ? { "http.request.method": "POST" } : { "webhook_admin.destination.kind": kind }),
      },
    },
    batch.parent,
  );
  return attempt().then(
    (outcome) => {
      span.setAttributes({ "webhook_admin.attempt.number": outcome.attemptNumber, "webhook_admin.attempt.success": outcome.success });
      if (outcome.statusCode !== null) span.setAttribute("http.response.status_code", outcome.statusCode);
      if (!outcome.success) failSpan(span, { code: outcome.error ?? `http_${outcome.statusCode}` });
      span.end();
      (outcome as Record<symbol, SpanContext>)[ATTEMPT_SPAN] = span.spanContext();
      return outcome;
    },
    (error: unknown) => {
      failSpan(span, error);
      span.end();
      throw error;
    },
  );
}

/** A group commit of outcomes in a `delivery.outcomes` span, linked to the attempts it writes. */
export function outcomesInSpan<T>(outcomes: readonly object[], write: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return write();
  const links: Link[] = [];
  for (const outcome of outcomes) {
    const attempt = (outcome as Record<symbol, SpanContext | undefined>)[ATTEMPT_SPAN];
    if (attempt) links.push({ context: attempt });
  }
  // A root span: a group holds attempts of many claims and messages.
  return inSpan(
    "delivery.outcomes",
    { kind: SpanKind.INTERNAL, root: true, links, attributes: { "webhook_admin.outcomes": outcomes.length } },
    () => write(),
  );
}
