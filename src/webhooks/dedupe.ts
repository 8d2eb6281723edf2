import { headerValue, type HeaderSource } from './header-source.js';
import { DEFAULT_HEADER_PREFIX, headerNames } from './names.js';

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

/** A day: far beyond the spec's retry schedule (about 15 minutes) and a sender's re-dispatch. */
export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60_000;

export interface MemoryDedupeStoreOptions {
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number;
  /** Oldest keys are dropped beyond this, so memory stays bounded. */
  maxEntries?: number;
}

/** The in-process default: a Map of key → expiry. One process only; use a shared store behind a load balancer. */
export class MemoryDedupeStore implements DedupeStore {
  private readonly expiries = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  get size(): number {
    return this.expiries.size;
  }

  claim(key: string, ttlMs: number): boolean {
    const now = this.now();
    this.sweep(now);
    const expiry = this.expiries.get(key);
    if (expiry !== undefined && expiry > now) return false;
    // Re-inserted at the end, so Map order stays oldest-first for the sweep and the cap.
    this.expiries.delete(key);
    this.expiries.set(key, now + ttlMs);
    while (this.expiries.size > this.maxEntries) this.expiries.delete(this.expiries.keys().next().value!);
    return true;
  }

  release(key: string): void {
    this.expiries.delete(key);
  }

  /** Drops expired keys from the front; with one TTL, insertion order is expiry order. */
  private sweep(now: number): void {
    for (const [key, expiry] of this.expiries) {
      if (expiry > now) break;
      this.expiries.delete(key);
    }
  }
}

export interface DeduplicatorOptions {
  store?: DedupeStore;
  ttlMs?: number;
  prefix?: string;
  /**
   * Also treat a second delivery for the same execution as a duplicate. On by default: a
   * sender that makes a new delivery id for each attempt defeats the delivery id alone.
   */
  byExecutionId?: boolean;
}

/** What the deduplicator reads from an event; a verified event has it. */
export interface DedupeEvent {
  data?: { executionId?: string };
}

/** Drops repeated deliveries: by `svc-delivery-id` / `Idempotency-Key`, and by execution id. */
export class WebhookDeduplicator {
  private readonly store: DedupeStore;
  private readonly ttlMs: number;
  private readonly prefix: string;
  private readonly byExecutionId: boolean;

  constructor(options: DeduplicatorOptions = {}) {
    this.store = options.store ?? new MemoryDedupeStore();
    this.ttlMs = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
    this.prefix = options.prefix ?? DEFAULT_HEADER_PREFIX;
    this.byExecutionId = options.byExecutionId ?? true;
  }

  /** The keys one delivery is known by. */
  keys(headers: HeaderSource, event?: DedupeEvent): string[] {
    const names = headerNames(this.prefix);
    const keys = new Set<string>();
    for (const name of [names.deliveryId, names.idempotencyKey]) {
      const id = headerValue(headers, name)?.trim();
      if (id) keys.add(`delivery:${id}`);
    }
    const executionId = event?.data?.executionId;
    if (this.byExecutionId && executionId) keys.add(`execution:${executionId}`);
    return [...keys];
  }

  /**
   * True for the first copy of a delivery (process it), false for a repeat (acknowledge it
   * and do nothing). Every key is claimed, so a later copy known by any of them is caught.
   */
  async claim(headers: HeaderSource, event?: DedupeEvent): Promise<boolean> {
    let first = true;
    for (const key of this.keys(headers, event)) {
      if (!(await this.store.claim(key, this.ttlMs))) first = false;
    }
    return first;
  }

  /** Forgets a delivery whose handling failed, so the sender's retry gets through. */
  async release(headers: HeaderSource, event?: DedupeEvent): Promise<void> {
    for (const key of this.keys(headers, event)) await this.store.release(key);
  }
}
