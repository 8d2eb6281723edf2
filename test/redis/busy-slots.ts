/** A granted slot, from its grant to one window after its request ended: what a pacer must never overlap past the limit. */
export interface Busy {
  start: number;
  end: number;
}

/** The most busy intervals (half-open) that overlap at any moment. */
export function mostAtOnce(intervals: Busy[]): number {
  const events = intervals.flatMap((b) => [
    { at: b.start, step: 1 },
    { at: b.end, step: -1 },
  ]);
  // At the same moment an end comes first: [a, b) and [b, c) do not overlap.
  events.sort((x, y) => x.at - y.at || x.step - y.step);
  let now = 0;
  let most = 0;
  for (const e of events) {
    now += e.step;
    most = Math.max(most, now);
  }
  return most;
}
