import { keyDigest } from './key-digest.js';
import { DEFAULT_TOLERANCE_MS } from './verify.js';

/**
 * Where seen delivery keys are kept. `claim` must be atomic (a Redis `SET NX PX`, an insert
 * on a unique key): two copies of a delivery arriving together must not both win.
 */
export interface DedupeStore {
  /** Records the key for `ttlMs`; true when this call recorded it, false when it was already there. */
  claim(key: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets the key, so the sender's retry is processed (call it when handling failed). */
  release(key: string): void | Promise<void>;
}

/**
 * Heap one remembered key costs at most: a 43-character digest string, its Map slot and its
 * expiry, measured (docs/benchmarks.md), with room left for the Map's growth.
 */
export const DEDUPE_ENTRY_BYTES = 160;

/** 16 MiB: about 100,000 deliveries. */
export const DEFAULT_DEDUPE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * How long a key is never dropped for the memory budget: twice the signature's replay window
 * (a delivery signed 5 minutes ahead of this clock stays replayable until 5 minutes after its
 * signed time). Dropping a key younger than this would let a replay of it through.
 */
export const DEDUPE_PROTECTED_MS = 2 * DEFAULT_TOLERANCE_MS;

/**
 * `claim` when the budget is full of keys still inside the replay window: the delivery is
 * refused, not taken for new, so the receiver answers with an error and the sender retries
 * once older keys have aged out (raise `maxBytes` for a higher delivery rate).
 */
export class DedupeStoreFullError extends RangeError {
  override readonly name = 'DedupeStoreFullError';
}

export interface MemoryDedupeStoreOptions {
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number;
  /**
   * Memory budget; beyond it the oldest keys are dropped, but never one younger than
   * `DEDUPE_PROTECTED_MS`: a claim that would need that throws `DedupeStoreFullError`.
   */
  maxBytes?: number;
}

/**
 * The in-process default: a Map of key digest → expiry. Keys are stored as a SHA-256 digest,
 * so every entry costs the same whatever the key's length. One process only; use a shared
 * store behind a load balancer.
 */
export class MemoryDedupeStore implements DedupeStore {
  private readonly expiries = new Map<string, number>();
  private readonly now: () => number;
  readonly maxBytes: number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxBytes = options.maxBytes ?? DEFAULT_DEDUPE_MAX_BYTES;
    if (!(this.maxBytes >= DEDUPE_ENTRY_BYTES)) throw new RangeError(`maxBytes must be at least ${DEDUPE_ENTRY_BYTES} (one key)`);
  }

  get size(): number {
    return this.expiries.size;
  }

  /** Memory the kept keys account for: `size × DEDUPE_ENTRY_BYTES`, never above `maxBytes`. */
  get bytes(): number {
    return this.expiries.size * DEDUPE_ENTRY_BYTES;
  }

  claim(key: string, ttlMs: number): boolean {
    const digest = keyDigest(key);
    const now = this.now();
    this.sweep(now);
    const expiry = this.expiries.get(digest);
    if ((expiry ?? -Infinity) > now) return false;
    // Re-inserted at the end, so Map order stays oldest-first for the sweep and the budget.
    this.expiries.delete(digest);
    if (this.bytes + DEDUPE_ENTRY_BYTES > this.maxBytes) this.makeRoom(now, ttlMs);
    this.expiries.set(digest, now + ttlMs);
    return true;
  }

  release(key: string): void {
    this.expiries.delete(keyDigest(key));
  }

  /**
   * Drops the oldest key for one more, unless it was claimed less than `DEDUPE_PROTECTED_MS`
   * ago (its expiry minus the TTL): then a replay of it would be taken for new, so the claim
   * is refused instead.
   */
  private makeRoom(now: number, ttlMs: number): void {
    const [oldest, expiry] = this.expiries.entries().next().value!;
    if (expiry - ttlMs > now - DEDUPE_PROTECTED_MS) {
      throw new DedupeStoreFullError(
        `the dedupe store is full (maxBytes ${this.maxBytes}) of deliveries still inside the replay window: answer with an error so the sender retries, or raise maxBytes`,
      );
    }
    this.expiries.delete(oldest);
  }

  /** Drops expired keys from the front; with one TTL, insertion order is expiry order. */
  private sweep(now: number): void {
    for (const [digest, expiry] of this.expiries) {
      if (expiry > now) break;
      this.expiries.delete(digest);
    }
  }
}
