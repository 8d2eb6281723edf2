/**
 * The calls running in this process by client and JSON-RPC id. A stateless server gets a
 * client's `notifications/cancelled` in a request of its own, not on the call's connection:
 * this is where that request finds the call to abort. Ids are the client's own, so they are
 * kept apart per client key; a call is found only by the client that made it.
 */
export class CancelRegistry {
  private readonly calls = new Map<string, AbortController>();

  private static key(client: string, id: string | number): string {
    return `${client}\u0000${typeof id}:${id}`;
  }

  /** Registers a running call; give the returned key to `remove` when it ends (no closure per call). */
  add(client: string, id: string | number, controller: AbortController): string {
    const key = CancelRegistry.key(client, id);
    this.calls.set(key, controller);
    return key;
  }

  /** Removes a call that ended, unless another call of the same client and id took its place. */
  remove(key: string, controller: AbortController): void {
    if (this.calls.get(key) === controller) this.calls.delete(key);
  }

  cancel(client: string, id: string | number, reason: string): void {
    this.calls.get(CancelRegistry.key(client, id))?.abort(new Error(reason));
  }

  get size(): number {
    return this.calls.size;
  }
}
