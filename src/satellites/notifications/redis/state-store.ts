import type { Delivery } from '../queue.js';
import type { NotificationState } from '../state.js';
import type { StateStore } from '../store.js';
import type { MonitorRedis } from './client.js';
import type { MonitorKeys } from './keys.js';
import type { Lease } from './lease.js';
import { pause, troubleLog } from './once-logger.js';

/**
 * The monitor's state document in Redis, written only with the lease's fencing token (a Lua
 * script compares it with the current one and writes, or refuses, in one step).
 *
 * `save` stays synchronous, as the notifier needs (a change and its save with no await
 * between): it takes a snapshot and a writer sends it. Snapshots are whole documents, so
 * while Redis is away only the newest waits to be written. `flush` resolves once everything
 * saved so far is in Redis, and rejects when the lease is lost (the next holder goes on from
 * the last write that got in). After each write, `onCommit` receives the deliveries that
 * write holds in its outbox: only committed deliveries are handed to BullMQ.
 */
export class RedisStateStore implements StateStore<NotificationState> {
  onCommit: ((outbox: Delivery[]) => void) | undefined;
  private next: { text: string; outbox: Delivery[] } | undefined;
  private writer: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly redis: MonitorRedis,
    private readonly keys: MonitorKeys,
    private readonly lease: Lease,
    private readonly loaded: NotificationState | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /** Reads the document once the lease is held (retrying while Redis is away). */
  static async read(redis: MonitorRedis, keys: MonitorKeys, lease: Lease, log: (line: string) => void): Promise<NotificationState | undefined> {
    const trouble = troubleLog(log, 'Redis unreachable: cannot read the state');
    while (!lease.lost.aborted) {
      try {
        const text = await redis.get(keys.state);
        trouble.ok();
        return text === null ? undefined : (JSON.parse(text) as NotificationState);
      } catch (error) {
        if (error instanceof SyntaxError) throw new Error(`the monitor state in Redis (${keys.state}) is not JSON: it was changed by something other than the monitor`);
        trouble.failed(error);
        await pause(500, lease.lost);
      }
    }
    return undefined;
  }

  load(): NotificationState | undefined {
    // Stryker disable next-line ConditionalExpression: structuredClone(undefined) is undefined
    return this.loaded === undefined ? undefined : structuredClone(this.loaded);
  }

  save(value: NotificationState): void {
    if (this.failure) return; // the lease is gone: nothing more is written
    const outbox = value.queue.deliveries.filter((d) => d.state === 'pending').map((d) => ({ ...d }));
    this.next = { text: JSON.stringify(value), outbox };
    this.writer ??= this.write().finally(() => {
      this.writer = undefined;
    });
  }

  async flush(): Promise<void> {
    while (this.writer) await this.writer;
    if (this.failure) throw this.failure;
  }

  private async write(): Promise<void> {
    const trouble = troubleLog(this.log, 'Redis unreachable: the state waits to be written');
    let backoff = 100;
    while (this.next && !this.failure) {
      if (this.lease.lost.aborted) {
        this.failure = new Error('the lease was lost before the state could be written');
        return;
      }
      const { text, outbox } = this.next;
      try {
        const written = Number(await this.redis.fencedSet(this.keys.fence, this.keys.state, this.lease.token, text));
        if (written !== 1) {
          this.failure = new Error('a newer holder\'s fencing token refused the write');
          this.lease.lose('a write was refused: another monitor holds a newer fencing token');
          return;
        }
        trouble.ok();
        backoff = 100;
        if (this.next?.text === text) this.next = undefined; // else a newer snapshot came meanwhile
        this.onCommit?.(outbox);
      } catch (error) {
        trouble.failed(error);
        await pause(backoff, this.lease.lost);
        backoff = Math.min(backoff * 2, 2_000);
      }
    }
  }
}
