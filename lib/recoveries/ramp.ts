/**
 * A run's rate: an eighth of its target (at least 1/s) from the start of its ramp, doubling every
 * `everyMs`, up to the target. The canary goes at the starting rate.
 */
export type Ramp = { target: number; startedAt: number | null; everyMs: number };

const startRate = (target: number) => Math.max(1, target / 8);

export function rateAt(ramp: Ramp, at: number): number {
  const start = startRate(ramp.target);
  if (ramp.startedAt === null) return start;
  const steps = Math.floor(Math.max(0, at - ramp.startedAt) / ramp.everyMs);
  return Math.min(ramp.target, start * 2 ** Math.min(steps, 30));
}

/** Items the ramp allows between two times: its rate integrated step by step, so a late tick is not credited at the later rate. */
export function allowedBetween(ramp: Ramp, from: number, to: number): number {
  let total = 0;
  for (let t = from; t < to; ) {
    const rate = rateAt(ramp, t);
    const nextStep =
      ramp.startedAt === null || rate >= ramp.target
        ? to
        : ramp.startedAt + (Math.floor(Math.max(0, t - ramp.startedAt) / ramp.everyMs) + 1) * ramp.everyMs;
    const end = Math.min(to, Math.max(nextStep, t + 1));
    total += (rate * (end - t)) / 1000;
    t = end;
  }
  return total;
}
