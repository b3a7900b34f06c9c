/**
 * Part w of `npm run bench`: poll throughput — messages/s through the cursor API
 * (GET /api/v1/endpoints/{id}/poll, lib/polling) from 10 pollers at once, each with a token of its
 * own reading the same polling endpoint from the start until it has every message, pages of
 * `limit`. The messages are ingested first and left to settle (POLL_SETTLE), so the figure is the
 * read path alone: the page query, signing each message, and — for the first poller to reach a
 * message — its `polled` delivery and attempt under the endpoint's row lock.
 */
import { Pool } from "undici";
import type { Api } from "./api";
import { sendMessages } from "./ingest";
import { percentile, sleep } from "./stats";

export type PollFigures = { messages: number; pollers: number; limit: number; elapsedMs: number; perPoller: number[]; pageMs: { p50: number; p99: number }; polledAttempts: number };

export async function measurePollThroughput(
  api: Api,
  options: { baseUrl: string; messages: number; pollers: number; limit: number; connections: number; countPolled: (endpointId: string) => Promise<number>; log: (line: string) => void },
): Promise<PollFigures> {
  const uid = "bench-poll";
  await api.expect(201, "POST", "/api/v1/consumers", { uid, name: uid });
  const endpoint = await api.expect(201, "POST", `/api/v1/consumers/${uid}/endpoints`, { kind: "polling" });
  const tokens: string[] = [];
  for (let i = 0; i < options.pollers; i++) tokens.push((await api.expect(201, "POST", `/api/v1/endpoints/${endpoint.id}/poll-tokens`)).token);
  await sendMessages(api, { label: "polled messages", count: options.messages, concurrency: options.connections, consumers: [uid] });
  // Past POLL_SETTLE (1 s by default): every message is there to read from the first page.
  await sleep(1500);

  const pool = new Pool(options.baseUrl, { connections: options.pollers, pipelining: 1, keepAliveTimeout: 60_000 });
  const pageMs: number[] = [];
  const perPoller: number[] = [];
  const started = performance.now();
  try {
    await Promise.all(
      tokens.map(async (token) => {
        const begun = performance.now();
        let cursor: string | null = null;
        let read = 0;
        while (read < options.messages) {
          const path: string = `/api/v1/endpoints/${endpoint.id}/poll?limit=${options.limit}${cursor ? `&cursor=${cursor}` : ""}`;
          const t0 = performance.now();
          const response = await pool.request({ method: "GET", path, headers: { authorization: `Bearer ${token}` } });
          const page = (await response.body.json()) as { data: unknown[]; cursor: string; done: boolean };
          pageMs.push(performance.now() - t0);
          if (response.statusCode !== 200) throw new Error(`poll: ${response.statusCode} ${JSON.stringify(page).slice(0, 300)}`);
          read += page.data.length;
          cursor = page.cursor;
          if (page.done && read < options.messages) throw new Error(`poll: done after ${read} of ${options.messages}`);
        }
        perPoller.push(read / ((performance.now() - begun) / 1000));
      }),
    );
  } finally {
    await pool.close();
  }
  const elapsedMs = performance.now() - started;
  const figures: PollFigures = {
    messages: options.messages,
    pollers: options.pollers,
    limit: options.limit,
    elapsedMs,
    perPoller,
    pageMs: { p50: percentile(pageMs, 50), p99: percentile(pageMs, 99) },
    polledAttempts: await options.countPolled(endpoint.id),
  };
  options.log(
    `${options.pollers} pollers read ${options.messages} messages each in ${Math.round(elapsedMs)} ms: ` +
      `${Math.round((options.pollers * options.messages) / (elapsedMs / 1000))} messages/s in all, page p50 ${figures.pageMs.p50.toFixed(1)} ms, p99 ${figures.pageMs.p99.toFixed(1)} ms; ` +
      `${figures.polledAttempts} polled attempts logged (each message once)`,
  );
  return figures;
}
