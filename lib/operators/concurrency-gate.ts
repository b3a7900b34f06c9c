/** Thrown by ConcurrencyGate.run when every slot is busy and the queue is full: nothing was run. */
export class GateFullError extends Error {
  constructor() {
    super("too much of this work is running or waiting");
    this.name = "GateFullError";
  }
}

/**
 * At most `maxRunning` calls at once and `maxWaiting` in line for a slot; past that a call is
 * refused at once rather than queued, so a flood costs a bounded amount of CPU and memory and
 * the excess is answered quickly instead of late. A finishing call hands its slot straight to the
 * longest-waiting one, so a newcomer never overtakes the queue.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    readonly maxRunning: number,
    readonly maxWaiting: number,
  ) {
    if (!(maxRunning >= 1 && maxWaiting >= 0)) throw new RangeError("a gate needs a slot, and a queue of 0 or more");
  }

  /** Runs `work` in a slot; rejects with GateFullError, without running it, when the queue is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.maxRunning) this.running += 1;
    else if (this.queue.length < this.maxWaiting) await new Promise<void>((resolve) => this.queue.push(resolve));
    else throw new GateFullError();
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
