import type { Api as ApiClient } from "./api";

/**
 * The objects most tests start from, made through the REST API as a customer's code makes them,
 * each creation checked (a fixture that silently failed would make the test fail for another
 * reason, far away). A portal session: portalSession in ./portal.
 */

/** Whoever makes them: an API key's client, or an operator's (tests/helpers/session.ts) where the actor is the point. */
type Api = Pick<ApiClient, "get" | "post">;

let seq = 0;

function created<T = any>(what: string, response: { status: number; text: string; body: T }, status = 201): T {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${response.text}`);
  return response.body;
}

/** A consumer, under a fresh uid starting `prefix` unless `fields.uid` names one; named after it unless `fields.name` does. */
export async function createConsumer(api: Api, fields: Record<string, unknown> = {}, prefix = "customer"): Promise<{ uid: string; id: string }> {
  const uid = (fields.uid as string | undefined) ?? `${prefix}-${++seq}`;
  const body = created("consumer", await api.post("/api/v1/consumers", { name: uid, ...fields, uid }));
  return { uid, id: body.id as string };
}

/** An endpoint of `consumer` (its uid) at `url`, with any other fields of POST /consumers/{uid}/endpoints: the endpoint as created. */
export async function createEndpoint(
  api: Api,
  consumer: string,
  url: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; url: string; [field: string]: unknown }> {
  return created("endpoint", await api.post(`/api/v1/consumers/${consumer}/endpoints`, { url, ...fields }));
}

/** An endpoint's signing secret (`whsec_…`), read as a customer reads it. */
export async function endpointSecret(api: Api, endpointId: string): Promise<string> {
  return created("secret", await api.get(`/api/v1/endpoints/${endpointId}/secret`), 200).key as string;
}

/** A fresh consumer with one endpoint per URL, each with `endpoint`'s fields. */
export async function consumerWithEndpoints(
  api: Api,
  urls: string[],
  options: { endpoint?: Record<string, unknown>; consumer?: Record<string, unknown>; prefix?: string } = {},
): Promise<{ uid: string; consumerId: string; endpoints: { id: string; url: string }[] }> {
  const { uid, id } = await createConsumer(api, options.consumer, options.prefix);
  const endpoints: { id: string; url: string }[] = [];
  for (const url of urls) endpoints.push(await createEndpoint(api, uid, url, options.endpoint));
  return { uid, consumerId: id, endpoints };
}

/** A fresh consumer with one endpoint at `url` (a receiver's, say). */
export async function consumerWithEndpoint(
  api: Api,
  url: string,
  options: { endpoint?: Record<string, unknown>; consumer?: Record<string, unknown>; prefix?: string } = {},
): Promise<{ uid: string; consumerId: string; endpointId: string; url: string }> {
  const { uid, consumerId, endpoints } = await consumerWithEndpoints(api, [url], options);
  return { uid, consumerId, endpointId: endpoints[0]!.id, url: endpoints[0]!.url };
}

/** A message to `consumer` (202 or the test fails); `fields` as POST /messages takes them, `headers` (an idempotency key, say) with the request. */
export async function sendMessage(
  api: Api,
  consumer: string,
  fields: { event_type?: string; payload?: unknown } & Record<string, unknown> = {},
  headers?: Record<string, string>,
): Promise<{ id: string; deliveries: number; [field: string]: unknown }> {
  return created("message", await api.post("/api/v1/messages", { consumer, event_type: "invoice.paid", payload: { hello: "world" }, ...fields }, headers), 202);
}

/** `n` messages to `consumer`, one after another, with payloads `{ i }`: their ids in order. */
export async function sendMessages(api: Api, consumer: string, n: number, eventType = "invoice.paid"): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await sendMessage(api, consumer, { event_type: eventType, payload: { i } })).id);
  return ids;
}
