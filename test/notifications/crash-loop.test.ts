/** Monitors that keep dying: no attempt is counted that was not made, none is made beyond the schedule. */
import { describe, expect, it } from 'vitest';
import { fakeClock, flush } from './fake-clock.js';
import { log, receiver, start, statePath, T0 } from './restart-helpers.js';

describe('delivery queue in a crash loop', () => {
  it('in a crash loop, counts only the attempts that were made, so none is used up unsent', async () => {
    const path = statePath();
    const clock = fakeClock(T0);
    const hang = receiver(() => undefined);
    const seed = start(path, hang.target, clock);
    for (let n = 0; n < 20; n++) seed.executionCompleted(log(n));
    // Six processes in a row die while their first attempts are in flight (8 at a time).
    for (let round = 0; round < 6; round++) {
      clock.set(T0 + round * 60_000);
      const dying = start(path, hang.target, clock);
      void dying.queue.startDue().done;
      await flush();
    }
    const restarted = start(path, hang.target, clock);
    for (const d of restarted.queue.deliveries) expect(d.attempts).toBe(hang.requests.get(d.id) ?? 0);
    expect(restarted.queue.deliveries.filter((d) => d.state !== 'pending')).toEqual([]);

    // The receiver recovers: everything is delivered, with no attempt counted that was not made.
    const ok = receiver(() => ({ kind: 'status', status: 200 }));
    clock.set(T0 + 10 * 60_000);
    const last = start(path, ok.target, clock);
    await last.deliverDue();
    const final = start(path, ok.target, clock);
    expect(final.queue.deliveries.map((d) => d.state)).toEqual(Array(20).fill('delivered'));
    for (const d of final.queue.deliveries) expect(d.attempts).toBe((hang.requests.get(d.id) ?? 0) + 1);
    expect(ok.requests.size).toBe(20);
  });

  it('does not make a seventh attempt after a kill during the sixth', async () => {
    const path = statePath();
    const clock = fakeClock(T0);
    let calls = 0;
    const flaky = receiver(() => (++calls <= 5 ? { kind: 'status', status: 503 } : undefined));
    const first = start(path, flaky.target, clock);
    first.executionCompleted(log(1));
    for (let attempt = 1; attempt <= 6; attempt++) {
      clock.set(Math.max(clock.now(), first.queue.nextDueAt() ?? clock.now()));
      void first.queue.startDue().done;
      await flush();
    }
    expect(calls).toBe(6); // the sixth never answers: the process is killed during it
    clock.set(clock.now() + 3_600_000);
    const lines: string[] = [];
    const second = start(path, flaky.target, clock, lines);
    await second.deliverDue();
    expect(calls).toBe(6);
    expect(second.queue.deliveries[0]).toMatchObject({ state: 'failed', attempts: 6 });
    expect(lines.join('\n')).toMatch(/the monitor stopped during attempt 6\/6, giving up \(schedule used up\)/);
  });
});
