import { keyDigest } from './key-digest.js';

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
 * expiry (about 116 bytes measured on Node 20; the rest is room for the Map's growth).
 */
export const DEDUPE_ENTRY_BYTES = 160;

/** 16 MiB: about 100,000 deliveries. */
export const DEFAULT_DEDUPE_MAX_BYTES = 16 * 1024 * 1024;

export interface MemoryDedupeStoreOptions {
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number;
  /** Memory budget; beyond it the oldest keys are dropped. */
  maxBytes?: number;
  /** @deprecated Use `maxBytes`; taken as `maxEntries × DEDUPE_ENTRY_BYTES`. */
  maxEntries?: number;
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
    this.maxBytes = options.maxBytes ?? (options.maxEntries === undefined ? DEFAULT_DEDUPE_MAX_BYTES : options.maxEntries * DEDUPE_ENTRY_BYTES);
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
    this.expiries.set(digest, now + ttlMs);
    while (this.bytes > this.maxBytes) this.expiries.delete(this.expiries.keys().next().value!);
    return true;
  }

  release(key: string): void {
    this.expiries.delete(keyDigest(key));
  }

  /** Drops expired keys from the front; with one TTL, insertion order is expiry order. */
  private sweep(now: number): void {
    for (const [digest, expiry] of this.expiries) {
      if (expiry > now) break;
      this.expiries.delete(digest);
    }
  }
}
