import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { heldTooLong, Pacer } from '../harness/pace/pacer.js';
import { onAbort } from '../harness/send/on-abort.js';
import type { PacerLike, PacerTurn, PacingSpec } from '../harness/types.js';
import { answerFigures } from './answer-figures.js';
import { ACQUIRE, DONE } from './pacer-scripts.js';
import type { RedisLink } from './redis-link.js';

export interface RedisPacerSettings {
  /** Prefix of every key the pacer writes. Default `flowblocks:pace:`. */
  keyPrefix?: string;
  /**
   * How long a granted slot stays busy when its worker never says it finished (it died):
   * at least one request's time limit. Keys expire this long after their last use too. Default 60 000 ms.
   */
  leaseMs?: number;
  /** The in-process pacer used while Redis is unreachable. Default: a new `Pacer`. */
  fallback?: PacerLike;
}

interface Waiter {
  resolve(turn: PacerTurn): void;
  reject(reason: unknown): void;
  deadline: number;
  budgetMs: number;
  signal?: AbortSignal;
  stopListening?: () => void;
}

/** This process's callers of one key, in order: only the first asks Redis, the others wait here. */
interface KeyQueue {
  id: string;
  keys: [string, string, string];
  spec: PacingSpec;
  waiters: Waiter[];
  running: boolean;
  wake?: () => void;
}

type PaceCommands = {
  flowblocksPaceAcquire(...args: (string | number)[]): Promise<[number, number]>;
  flowblocksPaceDone(...args: (string | number)[]): Promise<number>;
};

const now = () => performance.now();
/** The form `connection.request` gives keys: `<service>:<hex digest>`; only then is the service name kept readable. */
const SERVICE_KEY = /^([a-z][a-z0-9_-]{0,31}):[0-9a-f]{16,}$/;

/**
 * Paces calls per key across every process that shares one Redis: the in-process `Pacer`'s
 * rules (a slot busy from its grant to one window after its request finished; the service's
 * limit, remaining and reset headers and its 429s learned, clamped), kept in Redis and changed
 * only by two atomic Lua scripts. A worker that sees `x-ratelimit-remaining: 0` or a 429 holds
 * the whole fleet off. When Redis does not answer within its command time limit, calls go
 * through an in-process `Pacer` instead (one log line), and back to Redis when it answers.
 */
export class RedisPacer implements PacerLike {
  private readonly queues = new Map<string, KeyQueue>();
  private readonly prefix: string;
  private readonly leaseMs: number;
  private readonly fallback: PacerLike;
  private readonly commands: PaceCommands;

  /** @internal Use `createRedisPacer`. */
  constructor(
    private readonly link: RedisLink,
    settings: RedisPacerSettings = {},
  ) {
    this.prefix = settings.keyPrefix ?? 'flowblocks:pace:';
    this.leaseMs = settings.leaseMs ?? 60_000;
    this.fallback = settings.fallback ?? new Pacer();
    const client = link.client;
    client.defineCommand('flowblocksPaceAcquire', { numberOfKeys: 3, lua: ACQUIRE });
    client.defineCommand('flowblocksPaceDone', { numberOfKeys: 3, lua: DONE });
    this.commands = client as unknown as PaceCommands;
  }

  /** Whether calls are paced in Redis now (false while the in-process fallback paces them). */
  get shared(): boolean {
    return this.link.up;
  }

  /** The Redis client (ioredis) the pacer uses. */
  get client(): Redis {
    return this.link.client;
  }

  async acquire(spec: PacingSpec, signal?: AbortSignal, maxWaitMs = Infinity): Promise<PacerTurn> {
    if (signal?.aborted) throw signal.reason;
    if (!this.link.usable()) return this.fallback.acquire(spec, signal, maxWaitMs);
    const queue = this.queueOf(spec);
    return new Promise<PacerTurn>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, deadline: now() + maxWaitMs, budgetMs: maxWaitMs, signal };
      if (signal) {
        waiter.stopListening = onAbort(signal, () => {
          const index = queue.waiters.indexOf(waiter);
          // Stryker disable next-line ConditionalExpression: unreachable; every path that takes a waiter out of the queue stops listening first
          if (index < 0) return;
          queue.waiters.splice(index, 1);
          reject(signal.reason);
          if (queue.waiters.length === 0) queue.wake?.();
        });
      }
      queue.waiters.push(waiter);
      void this.pump(queue);
    });
  }

  /** Waits for the answers still on their way to Redis, then closes the connection it opened. */
  close(): Promise<void> {
    return this.link.close();
  }

  /** Redis's three keys of one pacing key, under a hash of it: a careless key that is a secret never reaches Redis. */
  private queueOf(spec: PacingSpec): KeyQueue {
    const digest = createHash('sha256').update(spec.key).digest('hex').slice(0, 32);
    let queue = this.queues.get(digest);
    if (!queue) {
      const service = SERVICE_KEY.exec(spec.key)?.[1];
      // The hash tag keeps the three keys in one slot of a Redis Cluster.
      const base = `${this.prefix}${service ? `${service}:` : ''}{${digest}}`;
      queue = { id: digest, keys: [`${base}:state`, `${base}:used`, `${base}:flight`], spec, waiters: [], running: false };
      this.queues.set(digest, queue);
    }
    return queue;
  }

  private args(queue: KeyQueue, turnId: string): (string | number)[] {
    const { spec } = queue;
    return [...queue.keys, turnId, spec.windowMs ?? 1_000, this.leaseMs, spec.limit ?? ''];
  }

  /** Asks Redis for the first waiter's slot until none waits; sleeps until the slot Redis names frees. */
  private async pump(queue: KeyQueue): Promise<void> {
    if (queue.running) return;
    queue.running = true;
    try {
      while (queue.waiters.length) {
        if (!this.link.usable()) return this.handOver(queue);
        const turnId = randomUUID();
        let granted: number;
        let waitMs: number;
        try {
          [granted, waitMs] = await this.link.run(() => this.commands.flowblocksPaceAcquire(...this.args(queue, turnId)));
        } catch {
          return this.handOver(queue);
        }
        if (granted === 1) {
          const waiter = queue.waiters.shift();
          if (waiter) {
            waiter.stopListening?.();
            waiter.resolve(this.turn(queue, turnId));
          } else {
            // Everyone left while Redis answered: give the slot back unused.
            void this.link.run(() => this.link.client.zrem(queue.keys[2], turnId)).catch(() => {});
          }
          continue;
        }
        this.refuseLate(queue, waitMs);
        if (!queue.waiters.length) break;
        await this.pause(queue, waitMs);
      }
    } finally {
      queue.running = false;
      if (queue.waiters.length === 0 && this.queues.get(queue.id) === queue) this.queues.delete(queue.id);
    }
  }

  /** Sleeps until the named time plus a little jitter, so workers woken by one free slot do not all ask at once. */
  private pause(queue: KeyQueue, waitMs: number): Promise<void> {
    const jitter = Math.random() * Math.min(20, waitMs / 10);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        queue.wake = undefined;
        resolve();
      }, Math.ceil(waitMs + jitter));
      queue.wake = () => {
        clearTimeout(timer);
        queue.wake = undefined;
        resolve();
      };
    });
  }

  /** Refuses at once every waiter whose budget ends before the first one can start (nobody behind it starts sooner). */
  private refuseLate(queue: KeyQueue, waitMs: number): void {
    const at = now();
    queue.waiters = queue.waiters.filter((waiter) => {
      if (waiter.deadline >= at + waitMs) return true;
      waiter.stopListening?.();
      waiter.reject(heldTooLong(Math.ceil(waitMs), waiter.budgetMs));
      return false;
    });
  }

  /** Redis failed: this key's waiters go on through the in-process pacer, with what is left of their budgets. */
  private handOver(queue: KeyQueue): void {
    for (const waiter of queue.waiters.splice(0)) {
      waiter.stopListening?.();
      const left = waiter.deadline - now();
      this.fallback.acquire(queue.spec, waiter.signal, Math.max(0, left)).then(waiter.resolve, waiter.reject);
    }
  }

  private turn(queue: KeyQueue, turnId: string): PacerTurn {
    let open = true;
    return {
      done: (response) => {
        if (!open) return;
        open = false;
        // Not awaited: the caller goes on; `close()` waits for it. Lost, the slot frees when its lease ends.
        this.link.track(() => this.commands.flowblocksPaceDone(...this.args(queue, turnId), ...answerFigures(response)));
      },
    };
  }
}
