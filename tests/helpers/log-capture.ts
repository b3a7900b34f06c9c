import { afterAll, beforeAll } from "vitest";

/**
 * Everything this test process writes to stderr from the file's start — the in-process web's and
 * worker's JSON log lines alike (lib/logger.ts writes through process.stderr.write as it is at the
 * time) — kept, and still passed on. `level` is set for the file's tests (setup-file.ts's default,
 * "error", would log almost nothing worth searching).
 */
export function captureLogs(level = "info"): { text: () => string } {
  const chunks: string[] = [];
  const realWrite = process.stderr.write.bind(process.stderr);
  const previous = process.env.LOG_LEVEL;
  beforeAll(() => {
    process.env.LOG_LEVEL = level;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
      return realWrite(chunk, ...rest);
    }) as typeof process.stderr.write;
  });
  afterAll(() => {
    process.stderr.write = realWrite;
    if (previous === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = previous;
  });
  return { text: () => chunks.join("") };
}
