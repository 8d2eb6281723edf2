import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { MonitorRedis } from './client.js';
import type { MonitorKeys } from './keys.js';
import { pause, troubleLog, untilAborted } from './once-logger.js';

export class LeaseHeldError extends Error {
  override name = 'LeaseHeldError';
  constructor() {
    super('another monitor holds the lease of this workspace');
  }
}

/** `acquire` without waiting (`--once`) gave up: Redis could not be reached for `ms`. */
export class RedisUnreachableError extends Error {
  override name = 'RedisUnreachableError';
  constructor(
    readonly ms: number,
    readonly last: string,
  ) {
    super(`Redis unreachable for ${ms / 1000} s (${last})`);
  }
}

export interface LeaseOptions {
  redis: MonitorRedis;
  keys: MonitorKeys;
  /** How long a holder that stops renewing keeps the lease. */
  leaseMs: number;
  log(line: string): void;
}

/**
 * One monitor's hold on a workspace: `SET NX PX` with a random owner id, and a fencing token
 * (`INCR` on acquisition) that every write of the holder carries. Renewed every third of the
 * lease. The holder treats the lease as gone `leaseMs` after it *sent* its last successful
 * renewal — before Redis can expire it, since Redis starts counting later — and then `lost`
 * aborts: it stops polling and delivering. Time is the monotonic clock, so a wall-clock
 * jump changes nothing.
 */
export class Lease {
  private readonly controller = new AbortController();
  private validUntil: number;
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;

  private constructor(
    private readonly options: LeaseOptions,
    /** Random per acquisition: only this holder's renewals and release touch the lease. */
    readonly owner: string,
    /** The fencing token of this hold. */
    readonly token: number,
    sentAt: number,
  ) {
    this.validUntil = sentAt + options.leaseMs;
    this.armExpiry();
    this.renewing = this.renewLoop();
  }

  /** Aborts when this process must stop acting as the holder. */
  get lost(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the lease is certainly still ours now (checked before each delivery starts). */
  valid(): boolean {
    return !this.controller.signal.aborted && performance.now() < this.validUntil;
  }

  /**
   * Waits until this process holds the lease (or `signal` aborts: undefined). While another
   * monitor holds it, tries again when its time-to-live says it could have expired.
   *
   * `wait: false` (`--once`) refuses at once while another monitor holds the lease, and waits
   * for an unreachable Redis one lease time at most (RedisUnreachableError): a run from cron
   * must end, where a long-running monitor must outlast the outage.
   */
  static async acquire(options: LeaseOptions, signal: AbortSignal, { wait = true } = {}): Promise<Lease | undefined> {
    const { redis, keys, leaseMs, log } = options;
    const trouble = troubleLog(log, 'Redis unreachable while waiting for the lease');
    let told = false;
    const owner = randomUUID();
    // Also ends an attempt stuck on the way (a first connect waits up to ioredis's connectTimeout, 10 s).
    const deadline = wait ? undefined : AbortSignal.timeout(leaseMs);
    const untilDeadline = <T>(step: Promise<T>): Promise<T> => (deadline ? untilAborted(step, deadline) : step);
    // The socket's own error (ECONNREFUSED, ENOTFOUND…) says more than the commands' "Connection is closed".
    let last = '';
    let socketError = '';
    const onError = (error: Error) => (socketError = error.message);
    redis.on('error', onError);
    try {
      while (!signal.aborted) {
        try {
          // Stryker disable next-line ConditionalExpression,StringLiteral: ioredis connects a lazyConnect client on its first command anyway
          if (redis.status === 'wait') await untilDeadline(redis.connect());
          const sentAt = performance.now();
          // An acquisition that gets through after the deadline leaves a lease nobody renews: it expires.
          const token = Number(await untilDeadline(redis.acquireLease(keys.lease, keys.fence, owner, leaseMs)));
          trouble.ok();
          if (token > 0) {
            return new Lease(options, owner, token, sentAt);
          }
          if (!wait) throw new LeaseHeldError();
          if (!told) log('another monitor holds the lease: waiting to take over');
          told = true;
          const ttl = Number(await redis.pttl(keys.lease));
          // Try again right when it could have expired, and at least every fifth of the lease.
          await pause(Math.min(Math.max(ttl, 0) + 10, leaseMs / 5), signal);
        } catch (error) {
          if (error instanceof LeaseHeldError) throw error;
          if (!deadline?.aborted) {
            last = (error as Error).message || String(error);
            trouble.failed(error);
            await pause(Math.min(500, leaseMs / 5), deadline ? AbortSignal.any([signal, deadline]) : signal);
          }
          if (deadline?.aborted && !signal.aborted) throw new RedisUnreachableError(leaseMs, socketError || last || 'no answer');
        }
      }
      return undefined;
    } finally {
      redis.off('error', onError);
    }
  }

  /** Stops renewing and deletes the lease if it is still ours, so a waiting monitor takes over at once. */
  async release(): Promise<void> {
    this.lose(undefined);
    await this.renewing;
    try {
      await this.options.redis.releaseLease(this.options.keys.lease, this.owner);
    } catch {
      // Redis is away: the lease expires by itself.
    }
  }

  /** Ends the hold (once); `reason` is logged when it ends against the holder's will. */
  lose(reason: string | undefined): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    if (reason) this.options.log(`lease lost: ${reason}; no more polls or deliveries until it is taken again`);
    this.controller.abort(new Error(reason ?? 'released'));
  }

  private armExpiry(): void {
    clearTimeout(this.timer);
    const ms = Math.max(0, this.validUntil - performance.now());
    this.timer = setTimeout(() => this.lose(`not renewed within the lease time (${this.options.leaseMs / 1000} s)`), ms);
    this.timer.unref();
  }

  private async renewLoop(): Promise<void> {
    const { redis, keys, leaseMs, log } = this.options;
    const trouble = troubleLog(log, 'Redis unreachable: cannot renew the lease');
    const signal = this.controller.signal;
    let wait = leaseMs / 3;
    while (!signal.aborted) {
      await pause(wait, signal);
      if (signal.aborted) return;
      try {
        const sentAt = performance.now();
        const renewed = Number(await redis.renewLease(keys.lease, keys.fence, this.owner, leaseMs, this.token));
        if (signal.aborted) return;
        if (renewed !== 1) return this.lose('another monitor took the lease (or it expired)');
        trouble.ok();
        this.validUntil = sentAt + leaseMs;
        this.armExpiry();
        wait = leaseMs / 3;
      } catch (error) {
        trouble.failed(error);
        wait = Math.min(250, leaseMs / 10); // retry soon: the lease is running out
      }
    }
  }
}
