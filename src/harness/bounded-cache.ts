/**
 * A small least-recently-used cache: a Map in use order, the oldest entry dropped past `max`.
 * For values derived per call from a few distinct inputs (a credential's pacing key, a base
 * URL's check), so their cost is paid once per input, in memory that stays bounded whatever
 * inputs callers pass.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached value of `key`, made by `make` on a miss. */
  get(key: K, make: (key: K) => V): V {
    const entries = this.entries;
    const hit = entries.get(key);
    if (hit !== undefined) {
      // Moved to the newest end only when it is not already there: the common repeat costs nothing.
      if (entries.size > 1 && this.last !== key) {
        entries.delete(key);
        entries.set(key, hit);
        this.last = key;
      }
      return hit;
    }
    const value = make(key);
    entries.set(key, value);
    this.last = key;
    if (entries.size > this.max) entries.delete(entries.keys().next().value as K);
    return value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  private last?: K;
}
