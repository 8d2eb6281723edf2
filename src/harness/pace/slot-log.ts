/** Entries kept per log: a constant, whatever limit a service names. */
const BUCKETS = 32;

/**
 * How many request slots were used when, for one key's sliding window, in O(1) memory: uses
 * close in time (the same 1/32 of the window) share one entry at the later time, so a slot is
 * freed at most 1/32 of a window late, never early. The newest entries live in a fixed ring.
 */
export class SlotLog {
  /** Slots in use within the window. */
  total = 0;
  private readonly times = new Float64Array(BUCKETS + 1);
  private readonly counts = new Float64Array(BUCKETS + 1);
  private head = 0;
  private size = 0;
  private readonly bucketMs: number;

  constructor(readonly windowMs: number) {
    this.bucketMs = windowMs / BUCKETS;
  }

  /** Counts `count` slots used at `at` (not before the newest entry). */
  add(at: number, count = 1): void {
    if (count <= 0) return;
    this.total += count;
    const cap = this.times.length;
    if (this.size > 0) {
      const last = (this.head + this.size - 1) % cap;
      if (Math.floor(at / this.bucketMs) === Math.floor(this.times[last]! / this.bucketMs)) {
        this.times[last] = at;
        this.counts[last]! += count;
        return;
      }
    }
    if (this.size === cap) {
      // Only when the caller skipped `prune`: fold the oldest into the next, which frees it later.
      const next = (this.head + 1) % cap;
      this.counts[next]! += this.counts[this.head]!;
      this.head = next;
      this.size--;
    }
    const slot = (this.head + this.size) % cap;
    this.times[slot] = at;
    this.counts[slot] = count;
    this.size++;
  }

  /** Forgets the slots whose window has passed by `at`. */
  prune(at: number): void {
    const cutoff = at - this.windowMs;
    while (this.size > 0 && this.times[this.head]! <= cutoff) {
      this.total -= this.counts[this.head]!;
      this.head = (this.head + 1) % this.times.length;
      this.size--;
    }
  }

  /** When `count` slots will have freed (Infinity when fewer than that are logged). */
  freedAt(count: number): number {
    let freed = 0;
    for (let i = 0; i < this.size; i++) {
      const slot = (this.head + i) % this.times.length;
      freed += this.counts[slot]!;
      if (freed >= count) return this.times[slot]! + this.windowMs;
    }
    return Infinity;
  }

  /** When the last logged slot frees (0 when none is). */
  lastFreeAt(): number {
    return this.size === 0 ? 0 : this.times[(this.head + this.size - 1) % this.times.length]! + this.windowMs;
  }
}
