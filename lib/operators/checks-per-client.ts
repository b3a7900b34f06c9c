/**
 * Sign-ins in progress per client address (from before their attempt is counted to their answer),
 * at most `perClient` each: past that, one client's flood is refused before it costs a database
 * write or a password check, and cannot take the password gate's places from everyone else. Only
 * clients with a sign-in in progress have an entry (it goes at zero), and at most `maxClients`:
 * past that many at once, a new client is refused as well.
 */
export class ChecksPerClient {
  private inProgress = new Map<string, number>();
  constructor(
    readonly perClient: number,
    readonly maxClients = 10_000,
  ) {}

  /** Takes a place for `client`, or false when it has `perClient` already (or too many clients do). */
  enter(client: string): boolean {
    const count = this.inProgress.get(client) ?? 0;
    if (count >= this.perClient || (count === 0 && this.inProgress.size >= this.maxClients)) return false;
    this.inProgress.set(client, count + 1);
    return true;
  }

  leave(client: string): void {
    const count = (this.inProgress.get(client) ?? 1) - 1;
    if (count > 0) this.inProgress.set(client, count);
    else this.inProgress.delete(client);
  }
}

/** Password sign-ins: two at once per known client address is plenty for people typing. */
export const signInsPerClient = new ChecksPerClient(2);
