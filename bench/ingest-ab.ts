import { apiClient } from "./api";
import { sendMessages, type IngestResult } from "./ingest";
import { startWeb } from "./product";
import { cpuSnapshot } from "./cpu";
import { percentile } from "./stats";

/**
 * Part a1: POST /api/v1/messages through the web server as production runs it (web/server.ts:
 * the route's own handler without Next.js's routing, ADR 0035) and through `next start` alone, two
 * web processes of this build on one database, in alternating rounds from the same client, so the
 * machine's load falls on both alike. The `next start` process is stopped after.
 */
export type ServerRound = { server: "web-server" | "next-start"; result: IngestResult; webCpuMicrosPerMessage: number };

export async function compareWebServers(
  setup: { env: NodeJS.ProcessEnv; logDir: string; apiKey: string; webUrl: string; webPid: number | undefined },
  options: { consumer: string; connections: number; pairs: number; messagesPerRound: number; offset: number; log: (line: string) => void },
): Promise<ServerRound[]> {
  const nextStart = await startWeb(setup.env, setup.logDir, "next-start");
  const clients = {
    "web-server": { api: apiClient(setup.webUrl, setup.apiKey, options.connections), pid: setup.webPid },
    "next-start": { api: apiClient(nextStart.url, setup.apiKey, options.connections), pid: nextStart.child.process.pid },
  };
  const rounds: ServerRound[] = [];
  let offset = options.offset;
  try {
    for (const { api } of Object.values(clients)) {
      await sendMessages(api, { label: "warm-up", count: 300, concurrency: options.connections, consumers: [options.consumer], offset });
      offset += 300;
    }
    for (let pair = 0; pair < options.pairs; pair++) {
      const order = pair % 2 === 0 ? (["next-start", "web-server"] as const) : (["web-server", "next-start"] as const);
      for (const server of order) {
        const { api, pid } = clients[server];
        const before = cpuSnapshot({ web: pid });
        const result = await sendMessages(api, { label: server, count: options.messagesPerRound, concurrency: options.connections, consumers: [options.consumer], offset });
        const after = cpuSnapshot({ web: pid });
        offset += options.messagesPerRound;
        const webSeconds = before && after ? after.seconds.web! - before.seconds.web! : Number.NaN;
        const round = { server, result, webCpuMicrosPerMessage: (webSeconds * 1e6) / Math.max(1, result.accepted) };
        rounds.push(round);
        const rate = (result.accepted / result.elapsedMs) * 1000;
        options.log(
          `  pair ${pair + 1}, ${server}: ${Math.round(rate)} messages/s, p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms, ` +
            `web CPU ${Math.round(round.webCpuMicrosPerMessage)} µs a message${result.sent > result.accepted ? `; ${result.sent - result.accepted} errors: ${result.firstError}` : ""}`,
        );
      }
    }
  } finally {
    await Promise.all(Object.values(clients).map(({ api }) => api.close()));
    await nextStart.child.stop();
  }
  return rounds;
}

/** Medians per server, and the web server's rate as a ratio of next start's, pair by pair. */
export function summarizeServers(rounds: ServerRound[]) {
  const of = (server: ServerRound["server"]) => rounds.filter((r) => r.server === server);
  const rate = (r: ServerRound) => (r.result.accepted / r.result.elapsedMs) * 1000;
  const median = (values: number[]) => percentile(values, 50);
  const summary = (server: ServerRound["server"]) => ({
    perSecond: median(of(server).map(rate)),
    p50: median(of(server).map((r) => r.result.latency.p50)),
    p99: median(of(server).map((r) => r.result.latency.p99)),
    cpuMicros: median(of(server).map((r) => r.webCpuMicrosPerMessage)),
  });
  const lean = of("web-server");
  const next = of("next-start");
  return { webServer: summary("web-server"), nextStart: summary("next-start"), ratio: median(lean.map((r, i) => rate(r) / rate(next[i]!))) };
}
