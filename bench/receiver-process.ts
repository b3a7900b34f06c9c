import { fork } from "node:child_process";
import path from "node:path";
import { startReceiver } from "./receiver";

/**
 * A receiver in a process of its own, for a light consumer's endpoint beside a heavy one's: the
 * bench's own receiver takes the heavy consumer's thousands of requests a second on the bench's
 * event loop, and a light request that waits there behind them would count that wait as the
 * engine's. Arrival times are taken in the child (wall clock, sub-millisecond) and handed back on the
 * parent's performance.now() scale, as the in-process receiver's are.
 */
export async function startReceiverProcess() {
  const child = fork(path.join(import.meta.dirname, "receiver-process.ts"), ["--child"], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const arrivals = new Map<string, number>();
  const url = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the receiver process exited (${code}) before listening`)));
    child.on("message", (message: { url?: string; id?: string; at?: number }) => {
      if (message.url) resolve(message.url);
      else if (message.id && message.at !== undefined) arrivals.set(message.id, message.at - performance.timeOrigin);
    });
  });
  child.removeAllListeners("exit");
  return {
    url,
    arrivalOf: (webhookId: string) => arrivals.get(webhookId),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

if (process.argv.includes("--child") && process.send) {
  const receiver = await startReceiver({ onArrival: (id, at) => process.send!({ id, at: performance.timeOrigin + at }) });
  process.send({ url: receiver.url });
  process.on("disconnect", () => process.exit(0));
}
