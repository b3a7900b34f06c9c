import { connect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 in front of the PostgreSQL of `databaseUrl` that holds every chunk
 * `oneWayMs` in each direction, in order: a database that far away. `url`: the same URL through it.
 */
export async function startLatencyProxy(databaseUrl: string, oneWayMs: number) {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  const delayed = (from: Socket, to: Socket) => from.on("data", (chunk) => setTimeout(() => to.destroyed || to.write(chunk), oneWayMs));
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => {
        sockets.delete(s);
        // Closed after what is still on its way, as a network would.
        setTimeout(() => (s === client ? upstream : client).end(), oneWayMs);
      });
    }
    delayed(client, upstream);
    delayed(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
