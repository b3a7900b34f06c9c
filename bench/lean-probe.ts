import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { BENCH_DIR } from "./database";
import { freePort } from "./system";

/**
 * The lean batch probe (bench/vendor/lean-probe/prototype-batch.mjs, vendored verbatim with its
 * receiver.cjs) as a same-run anchor for part b: the least a logged delivery costs on this stack —
 * claim 100 due rows with FOR UPDATE SKIP LOCKED and a lease, POST them with undici to a 204
 * receiver, write attempts and outcomes per batch, no caps, schedule or rollup. It runs as its
 * header says, against the bench's own database (tables of its own, p_deliveries and p_attempts),
 * with its own receiver (receiver.cjs). Only one thing differs from running it by hand: the files
 * are copied under .data/bench/ with the receiver's port in the probe (18090, fixed in its source)
 * replaced by a free one, so two runs on a shared machine do not collide. Its code is never
 * imported into the product.
 */
export type LeanProbeResult = { deliveries: number; elapsedMs: number; perSecond: number; line: string };

export const DEFAULT_LEAN_PROBE_DIR = fileURLToPath(new URL("./vendor/lean-probe", import.meta.url));

export async function runLeanProbe(options: {
  databaseUrl: string;
  dir?: string;
  deliveries: number;
  claimers?: number;
  batch?: number;
}): Promise<LeanProbeResult | { skipped: string }> {
  const dir = options.dir ?? DEFAULT_LEAN_PROBE_DIR;
  const probe = path.join(dir, "prototype-batch.mjs");
  const receiver = path.join(dir, "receiver.cjs");
  if (!existsSync(probe) || !existsSync(receiver)) return { skipped: `no lean probe in ${dir} (prototype-batch.mjs and receiver.cjs)` };

  const work = path.join(BENCH_DIR, "lean-probe");
  await mkdir(work, { recursive: true });
  const port = await freePort();
  const source = await readFile(probe, "utf8");
  if (!source.includes("127.0.0.1:18090")) return { skipped: `${probe} no longer posts to 127.0.0.1:18090; read its header and update bench/lean-probe.ts` };
  await writeFile(path.join(work, "prototype-batch.mjs"), source.replaceAll("127.0.0.1:18090", `127.0.0.1:${port}`));
  await copyFile(receiver, path.join(work, "receiver.cjs"));

  const receiving = spawn(process.execPath, [path.join(work, "receiver.cjs"), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      receiving.once("exit", (code) => reject(new Error(`the lean probe's receiver exited (${code})`)));
      createInterface({ input: receiving.stdout! }).on("line", (line) => {
        if (line.includes("listening")) resolve();
      });
    });
    const args = [String(options.deliveries), String(options.claimers ?? 8), String(options.batch ?? 100)];
    const child = spawn(process.execPath, [path.join(work, "prototype-batch.mjs"), ...args], {
      env: { ...process.env, DATABASE_URL: options.databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    // "batch claimers=8 batch=100: 20000 deliveries in 2860 ms = 6993 deliveries/s (attempt rows=20000)"
    const match = /: (\d+) deliveries in (\d+) ms = (\d+) deliveries\/s/.exec(output);
    if (code !== 0 || !match) throw new Error(`the lean probe failed (exit ${code}): ${output.slice(-500)}`);
    const deliveries = Number(match[1]);
    const elapsedMs = Number(match[2]);
    return { deliveries, elapsedMs, perSecond: (deliveries / elapsedMs) * 1000, line: output.trim().split("\n").at(-1)! };
  } finally {
    receiving.kill("SIGTERM");
  }
}
