import { onAbort } from '../send/on-abort.js';
import { failure, ToolFailure } from '../errors.js';
import { parseRateLimit, parseResetHeader } from './rate-limit.js';
import { SlotLog } from './slot-log.js';
import { MAX_TIMER_MS } from '../send/sleep.js';
import { startTimer, type Timer } from '../send/timers.js';
import type { PacerLike, PacerTurn, PacingSpec } from '../types.js';

export interface PacerOptions {
  /**
   * A fixed cap on starts per second per key, on top of the service's own signals (a fraction
   * rounds up within a second; below 1 it spaces starts out: 0.5 is one every 2 s).
   * Off by default: pacing then follows only what the service reports.
   */
  maxPerSecond?: number;
  /** The service's window when a request names none. Default 1000 ms. */
  windowMs?: number;
  /**
   * Keys remembered at once (keys come from the credentials callers pass). Past it the
   * oldest idle key is forgotten, which costs at worst one 429 for it later. Default 10 000.
   */
  maxKeys?: number;
}

/** A started request's slot; give it back with what the service answered (nothing after a fault). */
export interface Turn extends PacerTurn {
  done(response?: { status: number; headers: Record<string, string> }): void;
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  /** The call gives up being held past this (its `maxRetryAfterMs`). */
  deadline: number;
  budgetMs: number;
}

interface KeyState {
  /** Requests per window: the service's `x-ratelimit-limit` once seen, else the request's documented hint. */
  limit?: number;
  /**
   * When recent requests finished. A slot frees one window after its request finished: the
   * service counted it at some moment before that, so freeing it later can only err on the safe side.
   */
  used: SlotLog;
  /** Start times, kept only for the optional fixed cap. */
  starts?: SlotLog;
  inFlight: number;
  /** Nothing starts before this (a 429 from a service that gave no limit, or a reset time). */
  blockedUntil: number;
  queue: Waiter[];
  /** No waiter's deadline is earlier (a waiter that has left may still have set it). */
  firstDeadline: number;
  timer?: Timer;
}

const now = () => performance.now();

/** A timer's delay for a wait of `ms`: +1 ms because timers may fire a hair early, and never past a timer's range. */
const timerDelay = (ms: number) => Math.min(Math.ceil(ms) + 1, MAX_TIMER_MS);

/** The failure of a call the rate limit would hold past its budget (the Redis pacer's too). */
export function heldTooLong(retryAfterMs: number, budgetMs: number): ToolFailure {
  return failure(
    'rate_limited',
    `the rate limit lets this call start in ${retryAfterMs} ms, later than retry.maxRetryAfterMs allows (${budgetMs} ms)`,
    { retryable: true, retryAfterMs },
  );
}

/**
 * Paces calls per key (one per API key / team) against the service's rate limit, from the
 * service's own signals: its limit and remaining-requests headers and its 429s. A caller
 * below the limit never waits; a burst above it queues, in order, until slots free up,
 * instead of turning into a storm of 429s and retries. A call that would be held longer than
 * its budget is refused at once with `rate_limited`. Memory per key is constant, whatever
 * figures the service sends.
 */
export class Pacer implements PacerLike {
  private readonly keys = new Map<string, KeyState>();
  private readonly maxPerSecond?: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;

  constructor(options: PacerOptions = {}) {
    // A cap of 0, a negative or NaN window would hold every call for ever: refused by name.
    for (const name of ['maxPerSecond', 'windowMs', 'maxKeys'] as const) {
      const value = options[name];
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        throw new RangeError(`Pacer: ${name} must be a finite number above 0 (got ${String(value)})`);
      }
    }
    this.maxPerSecond = options.maxPerSecond;
    this.windowMs = options.windowMs ?? 1_000;
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  /**
   * Waits for a slot under `spec.key`. Rejects with the signal's reason if it aborts first, and
   * with a `rate_limited` failure (its `retryAfterMs` says when to come back) as soon as the
   * wait is known to exceed `maxWaitMs`.
   */
  async acquire(spec: PacingSpec, signal?: AbortSignal, maxWaitMs = Infinity): Promise<Turn> {
    const state = this.stateOf(spec);
    const at = now();
    const wait = this.waitMs(state, at);
    if (state.queue.length === 0 && wait === 0) {
      this.reserve(state, at);
      return this.turn(spec.key, state);
    }
    if (wait > maxWaitMs && wait < Infinity) throw heldTooLong(Math.ceil(wait), maxWaitMs);
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      let stopListening: (() => void) | undefined;
      const waiter: Waiter = {
        resolve: () => {
          stopListening?.();
          resolve();
        },
        reject: (reason) => {
          stopListening?.();
          reject(reason);
        },
        deadline: at + maxWaitMs,
        budgetMs: maxWaitMs,
      };
      if (signal) {
        stopListening = onAbort(signal, () => {
          const index = state.queue.indexOf(waiter);
          if (index >= 0) state.queue.splice(index, 1);
          reject(signal.reason);
          this.drain(spec.key, state);
        });
      }
      state.queue.push(waiter);
      state.firstDeadline = Math.min(state.firstDeadline, waiter.deadline);
      this.drain(spec.key, state);
    });
    return this.turn(spec.key, state);
  }

  /** How many requests under `key` are running or waiting (for tests and diagnostics). */
  pending(key: string): { inFlight: number; queued: number } {
    const state = this.keys.get(key);
    return { inFlight: state?.inFlight ?? 0, queued: state?.queue.length ?? 0 };
  }

  /** How many keys the pacer remembers now (for tests and diagnostics). */
  get keyCount(): number {
    return this.keys.size;
  }

  private stateOf(spec: PacingSpec): KeyState {
    let state = this.keys.get(spec.key);
    if (!state) {
      if (this.keys.size >= this.maxKeys) this.forgetOldestIdle();
      const used = new SlotLog(spec.windowMs ?? this.windowMs);
      // A cap below one per second counts over a longer window: 0.5 is one start per 2 s.
      const starts = this.maxPerSecond === undefined ? undefined : new SlotLog(Math.max(1_000, 1_000 / this.maxPerSecond));
      state = { limit: spec.limit, used, starts, inFlight: 0, blockedUntil: 0, queue: [], firstDeadline: Infinity };
      this.keys.set(spec.key, state);
    }
    return state;
  }

  /** Makes room for a new key: the oldest one with nothing running or waiting goes. */
  private forgetOldestIdle(): void {
    for (const [key, state] of this.keys) {
      if (state.inFlight === 0 && state.queue.length === 0) {
        state.timer?.cancel();
        this.keys.delete(key);
        return;
      }
    }
  }

  /** Counts a request as started the moment it is let go, so the next check sees it. */
  private reserve(state: KeyState, at: number): void {
    state.inFlight++;
    state.starts?.add(at);
  }

  private turn(key: string, state: KeyState): Turn {
    let open = true;
    return {
      done: (response) => {
        if (!open) return;
        open = false;
        state.inFlight--;
        this.observe(state, response);
        this.drain(key, state);
      },
    };
  }

  /** Learns from one answer: the service's limit, usage we did not see (other clients), a 429. */
  private observe(state: KeyState, response: { status: number; headers: Record<string, string> } | undefined): void {
    const at = now();
    state.used.prune(at);
    state.used.add(at);
    if (!response) return;
    // Figures arrive clamped: a limit of 10⁹ or a reset a year away cannot size memory or a wait.
    const info = parseRateLimit(response.headers);
    if (info?.limit !== undefined && info.limit > 0) state.limit = info.limit;
    const limited = response.status === 429;
    const remaining = limited ? 0 : info?.remaining;
    if (state.limit !== undefined && remaining !== undefined) {
      // The service counts more than we know of: someone else shares the key. Hold those slots too.
      state.used.add(at, state.limit - remaining - state.used.total - state.inFlight);
    }
    const exhausted = limited || remaining === 0;
    const reset = exhausted ? parseResetHeader(response.headers['x-ratelimit-reset'] ?? response.headers['ratelimit-reset']) : undefined;
    if (reset !== undefined) state.blockedUntil = Math.max(state.blockedUntil, at + Math.max(0, reset - Date.now()));
    else if (limited && state.limit === undefined) state.blockedUntil = Math.max(state.blockedUntil, at + state.used.windowMs);
  }

  /** 0 when a request may start now; otherwise ms until it might (Infinity: until one finishes). */
  private waitMs(state: KeyState, at: number): number {
    state.used.prune(at);
    if (at < state.blockedUntil) return state.blockedUntil - at;
    const starts = state.starts;
    if (starts && this.maxPerSecond !== undefined) {
      starts.prune(at);
      // Each start was let go with fewer than the cap logged, so the oldest freeing makes room.
      if (starts.total >= this.maxPerSecond) return starts.freedAt(1) - at;
    }
    const busy = state.used.total + state.inFlight;
    if (state.limit !== undefined && busy >= state.limit) return state.used.freedAt(busy - state.limit + 1) - at;
    return 0;
  }

  /** Lets waiting requests start while there is room, refuses those it cannot serve in time, then sleeps. */
  private drain(key: string, state: KeyState): void {
    state.timer?.cancel();
    state.timer = undefined;
    let wait = 0;
    while (state.queue.length && (wait = this.waitMs(state, now())) === 0) {
      this.reserve(state, now());
      state.queue.shift()!.resolve();
    }
    if (state.queue.length) this.refuseLate(state, now(), wait);
    if (state.queue.length) {
      const next = Math.min(wait, state.firstDeadline - now());
      if (next < Infinity) state.timer = startTimer(() => this.drain(key, state), timerDelay(next));
      return;
    }
    state.firstDeadline = Infinity;
    if (state.inFlight) return;
    // Idle: forget the key once its last window has passed, so many keys over time cost nothing.
    const idleAt = Math.max(state.blockedUntil, state.used.lastFreeAt(), state.starts?.lastFreeAt() ?? 0);
    if (now() >= idleAt) {
      if (this.keys.get(key) === state) this.keys.delete(key);
      return;
    }
    // In the background: an idle key's clean-up never keeps the process alive.
    state.timer = startTimer(() => this.drain(key, state), timerDelay(idleAt - now()), true);
  }

  /**
   * Refuses, at once, every waiter whose budget ends before the head of the queue can start
   * (nobody behind it starts sooner), or has ended while it waited for a request to finish.
   */
  private refuseLate(state: KeyState, at: number, wait: number): void {
    const known = wait < Infinity ? wait : 0;
    const isLate = (deadline: number) => deadline < at + known || deadline <= at;
    if (!isLate(state.firstDeadline)) return;
    // Unknown wait (every slot in flight): a slot frees a window after a request finishes, at the earliest.
    const retryAfterMs = Math.ceil(wait < Infinity ? wait : state.used.windowMs);
    let first = Infinity;
    state.queue = state.queue.filter((waiter) => {
      if (isLate(waiter.deadline)) {
        waiter.reject(heldTooLong(retryAfterMs, waiter.budgetMs));
        return false;
      }
      first = Math.min(first, waiter.deadline);
      return true;
    });
    state.firstDeadline = first;
  }
}

let shared: Pacer | undefined;

/** The process-wide pacer every call uses unless `options.pacer` names another (or `false`). */
export function sharedPacer(): Pacer {
  shared ??= new Pacer();
  return shared;
}

/**
 * Takes a turn for a request that asks to be paced; undefined when it does not, or pacing
 * is off. A hold longer than `maxWaitMs` is the call's `rate_limited` failure; an abort while
 * waiting is its `aborted` failure.
 */
export async function takeTurn(
  pacer: PacerLike | undefined,
  spec: PacingSpec | undefined,
  signal?: AbortSignal,
  maxWaitMs?: number,
): Promise<PacerTurn | undefined> {
  if (!pacer || !spec) return undefined;
  try {
    return await pacer.acquire(spec, signal, maxWaitMs);
  } catch (error) {
    if (error instanceof ToolFailure) throw error;
    throw failure('aborted', 'the call was aborted while waiting for its turn under the rate limit');
  }
}
