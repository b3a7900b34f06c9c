import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, type Dispatcher } from "undici";
import { logger } from "../logger";
import { vetAddress, type UrlPolicy } from "./url-safety";

/**
 * The one way anything leaves the building: deliveries, resends, recoveries, test sends and alert
 * webhooks all POST through here, so the SSRF rules, the deadline and the body cap hold for all.
 */
export type EgressPolicy = UrlPolicy & {
  /** Resolves a host name to addresses; tests swap in their own resolver. */
  resolve?: (hostname: string) => Promise<string[]>;
};

export type ErrorKind =
  | "timeout"
  | "connection_refused"
  | "connection_reset"
  | "dns_error"
  | "tls_error"
  | "forbidden_address"
  | "invalid_url"
  /** An http:// URL while ALLOW_HTTP_ENDPOINTS is off (it may have been on when the URL was accepted). */
  | "http_not_allowed"
  | "network_error";

export type EgressResult = {
  statusCode: number | null;
  error: ErrorKind | null;
  /** A human-readable cause for an error; never contains secrets. */
  errorDetail: string | null;
  headers: Record<string, string>;
  responseBody: string;
  durationMs: number;
};

class ForbiddenAddressError extends Error {
  readonly code = "EFORBIDDENADDRESS";
}

function defaultResolve(hostname: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );
}

/** What the socket is handed for a host: its vetted addresses, or why it may not be connected to. */
async function vettedAddresses(hostname: string, policy: EgressPolicy): Promise<{ address: string; family: number }[]> {
  const addresses = await (policy.resolve ?? defaultResolve)(hostname);
  if (!Array.isArray(addresses) || addresses.length === 0) throw Object.assign(new Error(`${hostname} has no addresses`), { code: "ENOTFOUND" });
  for (const address of addresses) {
    const reason = typeof address === "string" ? vetAddress(address, policy) : "not an IP address";
    if (reason) throw new ForbiddenAddressError(`${hostname} resolves to ${reason}`);
  }
  return addresses.map((address) => ({ address, family: isIP(address) }));
}

/**
 * A lookup for net/tls.connect that resolves, refuses the host if ANY address is forbidden, and
 * hands the socket only vetted addresses — the check holds on what is actually connected to, so a
 * DNS answer that changes between check and connect (rebinding) cannot slip past it. Total: the
 * answer comes from whoever runs the endpoint's DNS, so anything thrown while vetting it becomes
 * that one connection's error (the attempt fails), never a rejection that ends the worker.
 */
function guardedLookup(policy: EgressPolicy): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    vettedAddresses(hostname, policy)
      .then(
        (entries) => (options.all ? callback(null, entries) : callback(null, entries[0]!.address, entries[0]!.family)),
        (error: unknown) => callback(error instanceof Error ? error : new ForbiddenAddressError(`${hostname} cannot be vetted`)),
      )
      // The socket's own callback threw: that connection fails by its deadline, nothing else does.
      .catch((error: unknown) => logger.warn("a connection's address lookup failed", { error: String(error) }));
  }) as LookupFunction;
}

// One connection pool per endpoint, most recently used kept. Endpoints of different customers
// often share an origin (one SaaS inbox, one gateway); in a shared pool a hung endpoint's requests
// left others queued behind them (the bench's isolation part: a healthy endpoint waited out the hung
// one's timeout; bench/results/2026-12-01-delivery-a-to-d.md, "What these figures say"). Separate
// pools make the per-endpoint isolation hold at the socket level too.
const MAX_AGENTS = 2_000;
const agents = new Map<string, Agent>();

function agentFor(policy: EgressPolicy, timeoutMs: number, isolationKey: string): Agent {
  const key = policy.resolve ? null : `${policy.allowPrivate ? 1 : 0} ${policy.allowCidrs.map((c) => c.text).join(",")} ${timeoutMs} ${isolationKey}`;
  const existing = key ? agents.get(key) : undefined;
  if (existing && key) {
    agents.delete(key);
    agents.set(key, existing);
    return existing;
  }
  // undici's own timers tick coarsely (about every half second) and can fire early; they are only
  // a backstop here. The deadline is postWebhook's own timer.
  const backstop = timeoutMs + 2_000;
  const agent = new Agent({
    connect: { timeout: backstop, lookup: guardedLookup(policy) },
    // No socket limit: the endpoint's own concurrency cap bounds its pool.
    keepAliveTimeout: 4_000,
    headersTimeout: backstop,
    bodyTimeout: backstop,
  });
  if (key) {
    agents.set(key, agent);
    if (agents.size > MAX_AGENTS) {
      const [oldestKey, oldest] = agents.entries().next().value as [string, Agent];
      agents.delete(oldestKey);
      void oldest.close().catch(() => {});
    }
  }
  return agent;
}

/** What a network error chain means, in the attempt log's codes (shared with the queue destinations' clients). */
export function classifyNetworkError(error: unknown): { kind: ErrorKind; detail: string } {
  const chain: { code?: string; name?: string; message?: string }[] = [];
  let current = error as { code?: string; name?: string; message?: string; cause?: unknown } | undefined;
  for (let i = 0; i < 4 && current; i++) {
    chain.push(current);
    current = current.cause as typeof current;
  }
  const codes = chain.flatMap((e) => [String(e.code ?? ""), String(e.name ?? "")]);
  const message = chain.map((e) => e.message).find(Boolean) ?? "request failed";
  const has = (...c: string[]) => codes.some((code) => c.includes(code));
  if (has("EFORBIDDENADDRESS")) return { kind: "forbidden_address", detail: message };
  if (has("AbortError", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT", "TimeoutError"))
    return { kind: "timeout", detail: "no complete response before the deadline" };
  if (has("ENOTFOUND", "EAI_AGAIN", "EAI_NODATA", "EAI_NONAME")) return { kind: "dns_error", detail: message };
  if (has("ECONNREFUSED")) return { kind: "connection_refused", detail: message };
  if (has("ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "UND_ERR_CLOSED")) return { kind: "connection_reset", detail: message };
  if (codes.some((code) => code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL") || code.includes("CERT"))) return { kind: "tls_error", detail: message };
  return { kind: "network_error", detail: message };
}

/**
 * The address to connect to for a queue destination's broker: a literal IP vetted as it stands, a
 * name resolved with every address vetted, as postWebhook's lookup does. The broker's client is
 * handed the address, never the name, so what was vetted is what is connected to (no rebinding
 * between the two). Total: a refusal or a DNS failure is an error kind and its cause.
 */
export async function vetBrokerHost(hostname: string, policy: EgressPolicy): Promise<{ address: string } | { error: ErrorKind; detail: string }> {
  const literal = hostname.replace(/^\[|\]$/g, "");
  if (isIP(literal)) {
    const reason = vetAddress(literal, policy);
    return reason ? { error: "forbidden_address", detail: reason } : { address: literal };
  }
  try {
    const [first] = await vettedAddresses(literal, policy);
    return { address: first!.address };
  } catch (error) {
    const { kind, detail } = classifyNetworkError(error);
    return { error: kind, detail };
  }
}

/**
 * POSTs `body` to `url`. Never follows redirects; one deadline covers connect, headers and body;
 * reads at most `bodyLimit` bytes of the response and then drops the connection.
 */
export async function postWebhook(input: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  bodyLimit: number;
  policy: EgressPolicy;
  /** Requests with different keys (endpoints) never share connections. */
  isolationKey?: string;
}): Promise<EgressResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (kind: ErrorKind, detail: string): EgressResult => ({
    statusCode: null,
    error: kind,
    errorDetail: detail,
    headers: {},
    responseBody: "",
    durationMs: elapsed(),
  });

  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return failure("invalid_url", "the URL cannot be parsed");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return failure("invalid_url", "only http and https are supported");
  if (url.protocol === "http:" && !input.policy.allowHttp) return failure("http_not_allowed", "plain http:// is not allowed (ALLOW_HTTP_ENDPOINTS is off)");
  // Literal IPs never reach the lookup, so they are vetted here.
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(literal)) {
    const reason = vetAddress(literal, input.policy);
    if (reason) return failure("forbidden_address", reason);
  }

  const agent = agentFor(input.policy, input.timeoutMs, input.isolationKey ?? "");
  return new Promise<EgressResult>((resolve) => {
    // undici's lowest-level API: no response stream, no AbortSignal, no async iteration — on the
    // delivery hot path those cost more than the request itself (a CPU profile;
    // bench/results/2026-12-01-delivery-a-to-d.md, "What these figures say").
    let settled = false;
    let controller: Dispatcher.DispatchController | null = null;
    let statusCode = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let kept = 0;
    const settle = (result: EgressResult, drop: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Dropping the connection is how the rest of a response is never read.
      if (drop) controller?.abort(new Error("response not read further"));
      resolve(result);
    };
    const response = (): EgressResult => ({
      statusCode,
      error: null,
      errorDetail: null,
      headers,
      // Postgres text cannot hold NUL; a response is evidence, not data we must keep byte-exact.
      responseBody: chunks.length === 0 ? "" : Buffer.concat(chunks).toString("utf8").replace(/\u0000/g, ""),
      durationMs: elapsed(),
    });
    // One deadline for connect, headers and body. It settles the attempt even while the socket is
    // still connecting; the connection is dropped as soon as undici hands over its controller.
    const timer = setTimeout(() => settle(failure("timeout", `no complete response within ${input.timeoutMs} ms`), true), input.timeoutMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (settled) c.abort(new Error("deadline passed"));
      },
      onResponseStart(_c, code, responseHeaders) {
        // 1xx informational responses come first and are not the answer.
        if (code < 200) return;
        statusCode = code;
        headers = {};
        for (const [name, value] of Object.entries(responseHeaders)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
        }
        // Keeping no body at all: the answer is complete with its head.
        if (input.bodyLimit <= 0) settle(response(), true);
      },
      onResponseData(_c, chunk) {
        if (kept < input.bodyLimit) {
          chunks.push(chunk.subarray(0, input.bodyLimit - kept));
          kept += Math.min(chunk.length, input.bodyLimit - kept);
        }
        if (kept >= input.bodyLimit) settle(response(), true);
      },
      onResponseEnd() {
        settle(response(), false);
      },
      onResponseError(_c, error) {
        const { kind, detail } = classifyNetworkError(error);
        settle(failure(kind, detail), false);
      },
    };
    try {
      agent.dispatch({ origin: url.origin, path: url.pathname + url.search, method: "POST", headers: input.headers, body: input.body }, handler);
    } catch (error) {
      const { kind, detail } = classifyNetworkError(error);
      settle(failure(kind, detail), false);
    }
  });
}
