/** Why a call was not let in: too many of the client's own at once, or of everyone's. */
export type GateRefusal = 'client' | 'server';

/**
 * Bounds the tool calls running at once, per client and for the whole server. A client is
 * named by a key its request makes (a digest of its credentials), never by what it says it is.
 */
export class CallGate {
  private running = 0;
  private readonly perClient = new Map<string, number>();

  constructor(
    readonly maxPerServer: number,
    readonly maxPerClient: number,
  ) {}

  /** Takes `calls` places for a client, or says why not; the returned function gives them back once. */
  enter(client: string, calls: number): (() => void) | GateRefusal {
    const mine = this.perClient.get(client) ?? 0;
    if (mine + calls > this.maxPerClient) return 'client';
    if (this.running + calls > this.maxPerServer) return 'server';
    this.running += calls;
    this.perClient.set(client, mine + calls);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running -= calls;
      const now = (this.perClient.get(client) ?? calls) - calls;
      if (now > 0) this.perClient.set(client, now);
      else this.perClient.delete(client);
    };
  }
}
