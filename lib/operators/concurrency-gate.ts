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
 * longest-waiting one, so a newcomer never overtakes the queue. The last `reservedWaiting` places
 * in line are kept for calls that say they may take them (`run(work, { reserved: true })`), so a
 * flood of the other kind cannot fill the line on its own.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    readonly maxRunning: number,
    readonly maxWaiting: number,
    readonly reservedWaiting = 0,
  ) {
    if (!(maxRunning >= 1 && maxWaiting >= 0)) throw new RangeError("a gate needs a slot, and a queue of 0 or more");
    if (!(reservedWaiting >= 0 && reservedWaiting <= maxWaiting)) throw new RangeError("the reserved places are part of the queue");
  }

  /** Calls in line for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Whether a call of this kind would be taken now (run it, or queue it) rather than refused. */
  hasPlace({ reserved = false }: { reserved?: boolean } = {}): boolean {
    return this.running < this.maxRunning || this.queue.length < this.places(reserved);
  }

  private places(reserved: boolean): number {
    return reserved ? this.maxWaiting : this.maxWaiting - this.reservedWaiting;
  }

  /** Runs `work` in a slot; rejects with GateFullError, without running it, when the queue (its part of it) is full. */
  async run<T>(work: () => Promise<T>, { reserved = false }: { reserved?: boolean } = {}): Promise<T> {
    if (this.running < this.maxRunning) this.running += 1;
    else if (this.queue.length < this.places(reserved)) await new Promise<void>((resolve) => this.queue.push(resolve));
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
