import { dictionaryOf, type Dictionary } from '../../harness/dictionary.js';

/** Where the log monitor stands; persisted with the rest of the state. Log ids come from outside: dictionaries. */
export interface WatermarkState {
  /** Logs that started before this (epoch ms) are never read. */
  startFrom: number;
  /** Newest `startedAt` evaluated (epoch ms). */
  newest?: number;
  /** Evaluated log ids still inside the re-read window, with their `startedAt`. */
  seen: Dictionary<number>;
  /** Logs read while still running (no `endedAt`), with their `startedAt`: read again until they end. */
  running: Dictionary<number>;
}

/** A log that never gets its `endedAt` stops holding the read window back after this long. */
const MAX_RUNNING_MS = 24 * 3_600_000;

export function initialWatermark(startFrom: number): WatermarkState {
  return { startFrom, seen: dictionaryOf(), running: dictionaryOf() };
}

/**
 * Logs are listed by `startedAt`, but appear when they end, so a long execution shows up
 * behind shorter ones that started later. Each poll therefore re-reads a window before the
 * newest start (`lookbackMs`, and back to the oldest still-running log) and skips the ids it
 * has already evaluated: nothing is missed and nothing is evaluated twice.
 */
export class Watermark {
  constructor(
    readonly state: WatermarkState,
    private readonly lookbackMs: number,
  ) {
    // Read back from JSON: rebuilt as dictionaries in place (the notifier saves this object).
    state.seen = dictionaryOf(state.seen);
    state.running = dictionaryOf(state.running);
  }

  /** The `startDate` of the next poll (inclusive). */
  startDate(now: number): number {
    const running = Object.values(this.state.running).filter((t) => now - t < MAX_RUNNING_MS);
    const from = Math.min(this.state.newest === undefined ? Infinity : this.state.newest - this.lookbackMs, ...running);
    return Math.max(this.state.startFrom, Number.isFinite(from) ? from : this.state.startFrom);
  }

  isNew(id: string, startedAt: number): boolean {
    return startedAt >= this.state.startFrom && !Object.hasOwn(this.state.seen, id);
  }

  markRunning(id: string, startedAt: number): void {
    this.state.running[id] = startedAt;
  }

  markSeen(id: string, startedAt: number): void {
    delete this.state.running[id];
    this.state.seen[id] = startedAt;
    this.state.newest = Math.max(this.state.newest ?? startedAt, startedAt);
  }

  /** Forgets what the next poll cannot return any more. */
  prune(now: number): void {
    const from = this.startDate(now);
    for (const [id, t] of Object.entries(this.state.seen)) if (t < from) delete this.state.seen[id];
    for (const [id, t] of Object.entries(this.state.running)) if (now - t >= MAX_RUNNING_MS) delete this.state.running[id];
  }
}
