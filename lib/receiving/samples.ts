import { readFileSync } from "node:fs";
import path from "node:path";
import { POLLING_SAMPLES, RECEIVING_SAMPLES } from "./sample-text";
import type { ReceivingPolicy, ReceivingSample, ReceivingSampleId } from "./schemas";

// Read from the project root at run time (`next start`, `npm run web` and the tests run there);
// next.config.ts adds this folder to the portal routes' output file traces, so a build copied
// elsewhere (standalone) carries it too.
const SAMPLES_DIR = path.join(process.cwd(), "lib", "receiving", "samples");

let cached: ReceivingSample[] | null = null;
let cachedPolling: ReceivingSample[] | null = null;

const read = (samples: readonly { id: ReceivingSample["id"]; file: string; title: string }[]): ReceivingSample[] =>
  samples.map((sample) => ({ ...sample, code: readFileSync(path.join(SAMPLES_DIR, sample.file), "utf8") }));

/** Every sample's text, read once per process: on the server only (a page passes them to its screen). */
export function readReceivingSamples(): ReceivingSample[] {
  cached ??= read(RECEIVING_SAMPLES);
  return cached;
}

/** Every polling reader's text, read once per process, as the receivers'. */
export function readPollingSamples(): ReceivingSample[] {
  cachedPolling ??= read(POLLING_SAMPLES);
  return cachedPolling;
}

export function readPollingSample(id: ReceivingSampleId): ReceivingSample {
  const sample = readPollingSamples().find((s) => s.id === id);
  if (!sample) throw new Error(`no polling sample ${id}`);
  return sample;
}

export function readReceivingSample(id: ReceivingSampleId): ReceivingSample {
  const sample = readReceivingSamples().find((s) => s.id === id);
  if (!sample) throw new Error(`no receiving sample ${id}`);
  return sample;
}

/** The delivery rules the receiving guide quotes, in the units it quotes them in. */
export function receivingPolicy(config: { DELIVERY_TIMEOUT: number; SECRET_ROTATION_OVERLAP: number }): ReceivingPolicy {
  return {
    timeoutSeconds: Math.round((config.DELIVERY_TIMEOUT / 1000) * 10) / 10,
    rotationHours: Math.round((config.SECRET_ROTATION_OVERLAP / 3_600_000) * 10) / 10,
  };
}
