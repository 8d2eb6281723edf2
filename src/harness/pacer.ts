import { failure } from './errors.js';
import { parseRateLimit, parseResetHeader } from './rate-limit.js';
import type { PacingSpec } from './types.js';

export interface PacerOptions {
  /**
   * A fixed cap on starts per second per key, on top of the service's own signals.
   * Off by default: pacing then follows only what the service reports.
   */
  maxPerSecond?: number;
  /** The service's window when a request names none. Default 1000 ms. */
  windowMs?: number;
}

/** A started request's slot; give it back with what the service answered (nothing after a fault). */
export interface Turn {
  done(response?: { status: number; headers: Record<string, string> }): void;
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

interface KeyState {
  /** Requests per window: the service's `x-ratelimit-limit` once seen, else the request's documented hint. */
  limit?: number;
  windowMs: number;
  inFlight: number;
  /**
   * When each recent request finished, ascending. A slot frees one window after its
   * request finished: the service counted it at some moment before that, so freeing it
   * later than the service does can only err on the safe side.
   */
  used: number[];
  /** Start times, for the optional fixed cap. */
  starts: number[];
  /** Nothing starts before this (a 429 from a service that gave no limit, or a reset time). */
  blockedUntil: number;
  queue: Waiter[];
  timer?: ReturnType<typeof setTimeout>;
}

const now = () => performance.now();

/**
 * Paces calls per key (one per API key / team) against the service's rate limit, from the
 * service's own signals: its limit and remaining-requests headers and its 429s. A caller
 * below the limit never waits; a burst above it queues, in order, until slots free up,
 * instead of turning into a storm of 429s and retries.
 */
export class Pacer {
  private readonly keys = new Map<string, KeyState>();
  private readonly maxPerSecond?: number;
  private readonly windowMs: number;

  constructor(options: PacerOptions = {}) {
    this.maxPerSecond = options.maxPerSecond;
    this.windowMs = options.windowMs ?? 1_000;
  }

  /** Waits for a slot under `spec.key` (rejects with the signal's reason if it aborts first). */
  async acquire(spec: PacingSpec, signal?: AbortSignal): Promise<Turn> {
    const state = this.stateOf(spec);
    if (state.queue.length === 0 && this.waitMs(state, now()) === 0) {
      this.reserve(state);
      return this.turn(spec.key, state);
    }
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const index = state.queue.indexOf(waiter);
        if (index >= 0) state.queue.splice(index, 1);
        reject(signal?.reason);
        this.drain(spec.key, state);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      state.queue.push(waiter);
      this.drain(spec.key, state);
    });
    return this.turn(spec.key, state);
  }

  /** How many requests under `key` are running or waiting (for tests and diagnostics). */
  pending(key: string): { inFlight: number; queued: number } {
    const state = this.keys.get(key);
    return { inFlight: state?.inFlight ?? 0, queued: state?.queue.length ?? 0 };
  }

  private stateOf(spec: PacingSpec): KeyState {
    let state = this.keys.get(spec.key);
    if (!state) {
      state = { limit: spec.limit, windowMs: spec.windowMs ?? this.windowMs, inFlight: 0, used: [], starts: [], blockedUntil: 0, queue: [] };
      this.keys.set(spec.key, state);
    }
    return state;
  }

  /** Counts a request as started the moment it is let go, so the next check sees it. */
  private reserve(state: KeyState): void {
    state.inFlight++;
    state.starts.push(now());
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
    this.prune(state, at);
    state.used.push(at);
    if (!response) return;
    const info = parseRateLimit(response.headers);
    if (info?.limit !== undefined && info.limit > 0) state.limit = info.limit;
    const limited = response.status === 429;
    const remaining = limited ? 0 : info?.remaining;
    if (state.limit !== undefined && remaining !== undefined) {
      // The service counts more than we know of: someone else shares the key. Hold those slots too.
      const unseen = state.limit - remaining - state.used.length - state.inFlight;
      for (let i = 0; i < unseen; i++) state.used.push(at);
    }
    const exhausted = limited || remaining === 0;
    const reset = exhausted ? parseResetHeader(response.headers['x-ratelimit-reset'] ?? response.headers['ratelimit-reset']) : undefined;
    if (reset !== undefined) state.blockedUntil = Math.max(state.blockedUntil, at + Math.max(0, reset - Date.now()));
    else if (limited && state.limit === undefined) state.blockedUntil = Math.max(state.blockedUntil, at + state.windowMs);
  }

  private prune(state: KeyState, at: number): void {
    while (state.used.length && state.used[0]! <= at - state.windowMs) state.used.shift();
    while (state.starts.length && state.starts[0]! <= at - 1_000) state.starts.shift();
  }

  /** 0 when a request may start now; otherwise ms until it might (Infinity: until one finishes). */
  private waitMs(state: KeyState, at: number): number {
    this.prune(state, at);
    if (at < state.blockedUntil) return state.blockedUntil - at;
    if (this.maxPerSecond !== undefined && state.starts.length >= this.maxPerSecond) return state.starts[0]! + 1_000 - at;
    if (state.limit !== undefined && state.used.length + state.inFlight >= state.limit) {
      return state.used.length ? state.used[0]! + state.windowMs - at : Infinity;
    }
    return 0;
  }

  /** Lets waiting requests start while there is room, then sleeps until the next slot frees. */
  private drain(key: string, state: KeyState): void {
    if (state.timer) clearTimeout(state.timer);
    state.timer = undefined;
    let wait = 0;
    while (state.queue.length && (wait = this.waitMs(state, now())) === 0) {
      this.reserve(state);
      state.queue.shift()!.resolve();
    }
    if (state.queue.length) {
      // +1 ms: timers may fire a hair early, and a slot frees strictly after its window.
      if (Number.isFinite(wait)) state.timer = setTimeout(() => this.drain(key, state), Math.ceil(wait) + 1);
      return;
    }
    if (state.inFlight) return;
    // Idle: forget the key once its last window has passed, so many keys over time cost nothing.
    const last = state.used.at(-1);
    const idleAt = Math.max(state.blockedUntil, last === undefined ? 0 : last + state.windowMs);
    if (now() >= idleAt) {
      if (this.keys.get(key) === state) this.keys.delete(key);
      return;
    }
    state.timer = setTimeout(() => this.drain(key, state), Math.ceil(idleAt - now()) + 1);
    state.timer.unref?.();
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
 * is off. An abort while waiting is the call's `aborted` failure.
 */
export async function takeTurn(pacer: Pacer | undefined, spec: PacingSpec | undefined, signal?: AbortSignal): Promise<Turn | undefined> {
  if (!pacer || !spec) return undefined;
  try {
    return await pacer.acquire(spec, signal);
  } catch {
    throw failure('aborted', 'the call was aborted while waiting for its turn under the rate limit');
  }
}
