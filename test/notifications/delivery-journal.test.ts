import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/satellites/notifications/journal.js';
import type { NotificationState } from '../../src/satellites/notifications/state.js';
import { journalPathFor } from '../../src/satellites/notifications/store.js';
import { fakeClock } from './fake-clock.js';
import { log, receiver, start, statePath, T0 } from './restart-helpers.js';

describe('delivery journal', () => {
  it('ignores a torn last line (a kill mid-write), replays the whole lines, and compacts at start', () => {
    const path = statePath();
    const clock = fakeClock(T0);
    const first = start(path, receiver(() => undefined).target, clock);
    const [delivery] = first.executionCompleted(log(1));
    const id = delivery!.id;
    const journal = journalPathFor(path);
    const started = { event: 'attempt-started', id, attempts: 1, nextAttemptAt: T0 + 5_000, state: 'pending' };
    appendFileSync(journal, `${JSON.stringify(started)}\n`);
    // The outcome's line was cut short by the kill: it must not count.
    appendFileSync(journal, JSON.stringify({ event: 'attempt-ended', id, attempts: 1, nextAttemptAt: T0, state: 'delivered' }).slice(0, 40));
    expect(readJournal(journal)).toEqual({ events: [started], torn: true });

    const second = start(path, receiver(() => undefined).target, clock);
    expect(second.queue.pending().map((d) => [d.attempts, d.nextAttemptAt])).toEqual([[1, T0 + 5_000]]);
    // Compacted: the state file holds the replayed attempt, written whole, and the journal is gone.
    expect(existsSync(journal)).toBe(false);
    const saved = JSON.parse(readFileSync(path, 'utf8')) as NotificationState;
    expect(saved.queue.deliveries[0]).toMatchObject({ id, attempts: 1, state: 'pending' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('writes the journal with mode 0600, and refuses a whole line that is not an entry', () => {
    const path = statePath();
    const clock = fakeClock(T0);
    const notifier = start(path, receiver(() => ({ kind: 'status', status: 200 })).target, clock);
    notifier.executionCompleted(log(1));
    void notifier.deliverDue();
    const journal = journalPathFor(path);
    expect(statSync(journal).mode & 0o777).toBe(0o600);
    expect(readJournal(journal).events).toMatchObject([{ event: 'attempt-started', attempts: 1 }]);
    writeFileSync(journal, 'not json\n{}\n');
    expect(() => readJournal(journal)).toThrow(/line 1 is not a journal entry/);
  });
});
