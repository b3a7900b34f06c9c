import { Pool } from "undici";

export type ApiResponse = { status: number; body: any; ms: number };

/** The product's REST API over real HTTP: one keep-alive undici Pool, Bearer auth. */
export function apiClient(baseUrl: string, apiKey: string, connections = 32) {
  const pool = new Pool(baseUrl, { connections, pipelining: 1, keepAliveTimeout: 60_000 });

  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<ApiResponse> {
    const started = performance.now();
    const response = await pool.request({
      method,
      path,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    const ms = performance.now() - started;
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.statusCode, body: parsed, ms };
  }

  /** Like call(), but throws unless the status is the expected one (for setup requests). */
  async function expect(status: number, method: "GET" | "POST", path: string, body?: unknown): Promise<any> {
    const response = await call(method, path, body);
    if (response.status !== status) {
      throw new Error(`${method} ${path}: expected ${status}, got ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`);
    }
    return response.body;
  }

  return { call, expect, close: () => pool.close() };
}

export type Api = ReturnType<typeof apiClient>;

/** A small realistic payload (~250 bytes of JSON). */
export function samplePayload(i: number) {
  return {
    type: "invoice.paid",
    data: { invoice_id: `in_${i}`, amount: 4200 + (i % 100), currency: "eur", customer: `cus_${i % 977}`, lines: [{ sku: "pro-monthly", quantity: 1 }] },
  };
}

/** Runs `task(0)` … `task(count - 1)` with at most `concurrency` of them in flight at a time. */
export async function runConcurrently(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      const i = next++;
      await task(i);
    }
  });
  await Promise.all(lanes);
}
