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
 * claim time (about 116 bytes measured on Node 20; the rest is room for the Map's growth).
 */
export const DEDUPE_ENTRY_BYTES = 160;

/** 16 MiB: about 100,000 deliveries. */
export const DEFAULT_DEDUPE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * How long after its claim a key may never be dropped for the budget: twice the verifier's
 * replay window (a delivery signed 5 minutes ahead of the receiver's clock is replayable until
 * 5 minutes after its signed time). The same figure as `MIN_DEDUPE_TTL_MS`.
 */
export const DEFAULT_DEDUPE_REPLAY_WINDOW_MS = 2 * DEFAULT_TOLERANCE_MS;

/**
 * The budget is full of keys still inside the replay window: dropping one would let its replay
 * through, so the delivery is refused instead (answer 503; the sender retries it later).
 */
export class DedupeStoreFullError extends Error {
  constructor(maxBytes: number, replayWindowMs: number) {
    super(
      `the dedupe store is full (maxBytes ${maxBytes}) of deliveries claimed in the last ${replayWindowMs} ms, which could still be replayed: ` +
        'refusing this delivery rather than forgetting one of them; answer 503 so the sender retries, or raise maxBytes',
    );
    this.name = 'DedupeStoreFullError';
  }
}

export interface MemoryDedupeStoreOptions {
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number;
  /**
   * Memory budget. Beyond it the oldest keys are dropped, but never one claimed less than
   * `replayWindowMs` ago: then `claim` throws `DedupeStoreFullError` (fail closed).
   */
  maxBytes?: number;
  /** @deprecated Use `maxBytes`; taken as `maxEntries × DEDUPE_ENTRY_BYTES`. */
  maxEntries?: number;
  /**
   * Keys younger than this are never dropped for the budget. Default
   * `DEFAULT_DEDUPE_REPLAY_WINDOW_MS` (10 minutes); raise it to twice the `toleranceMs` you verify with.
   */
  replayWindowMs?: number;
}

/**
 * The in-process default: key digest → claim time, one Map per time-to-live, so each Map's
 * insertion order is its expiry order and a key costs one number. Keys are stored as a
 * SHA-256 digest, so every entry costs the same whatever the key's length. One process only;
 * use a shared store behind a load balancer.
 */
export class MemoryDedupeStore implements DedupeStore {
  /** time-to-live → (digest → claim time), oldest first. */
  private readonly byTtl = new Map<number, Map<string, number>>();
  private count = 0;
  private readonly now: () => number;
  readonly maxBytes: number;
  readonly replayWindowMs: number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxBytes = options.maxBytes ?? (options.maxEntries === undefined ? DEFAULT_DEDUPE_MAX_BYTES : options.maxEntries * DEDUPE_ENTRY_BYTES);
    if (!(this.maxBytes >= DEDUPE_ENTRY_BYTES)) throw new RangeError(`maxBytes must be at least ${DEDUPE_ENTRY_BYTES} (one key)`);
    this.replayWindowMs = options.replayWindowMs ?? DEFAULT_DEDUPE_REPLAY_WINDOW_MS;
  }

  get size(): number {
    return this.count;
  }

  /** Memory the kept keys account for: `size × DEDUPE_ENTRY_BYTES`, never above `maxBytes`. */
  get bytes(): number {
    return this.count * DEDUPE_ENTRY_BYTES;
  }

  claim(key: string, ttlMs: number): boolean {
    const digest = keyDigest(key);
    const now = this.now();
    this.sweep(now);
    // After the sweep, a key still held has not expired.
    for (const keys of this.byTtl.values()) if (keys.has(digest)) return false;
    while ((this.count + 1) * DEDUPE_ENTRY_BYTES > this.maxBytes) {
      const oldest = this.oldest()!;
      if (now - oldest.claimedAt < this.replayWindowMs) throw new DedupeStoreFullError(this.maxBytes, this.replayWindowMs);
      oldest.keys.delete(oldest.digest);
      this.count--;
    }
    let keys = this.byTtl.get(ttlMs);
    if (!keys) this.byTtl.set(ttlMs, (keys = new Map()));
    keys.set(digest, now);
    this.count++;
    return true;
  }

  release(key: string): void {
    const digest = keyDigest(key);
    for (const keys of this.byTtl.values()) if (keys.delete(digest)) this.count--;
  }

  /** The key claimed first, across the time-to-lives. */
  private oldest(): { keys: Map<string, number>; digest: string; claimedAt: number } | undefined {
    let found: { keys: Map<string, number>; digest: string; claimedAt: number } | undefined;
    for (const keys of this.byTtl.values()) {
      const first = keys.entries().next();
      if (!first.done && (!found || first.value[1] < found.claimedAt)) found = { keys, digest: first.value[0], claimedAt: first.value[1] };
    }
    return found;
  }

  /** Drops expired keys from the front of each Map; one time-to-live per Map, so claim order is expiry order. */
  private sweep(now: number): void {
    for (const [ttl, keys] of this.byTtl) {
      for (const [digest, claimedAt] of keys) {
        if (claimedAt + ttl > now) break;
        keys.delete(digest);
        this.count--;
      }
      if (keys.size === 0) this.byTtl.delete(ttl);
    }
  }
}
