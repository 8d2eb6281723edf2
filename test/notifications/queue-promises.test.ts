/**
 * Two promises of the delivery queue, written from what a receiver relies on (issue 34):
 * - a delivery is never sent twice at once: while one attempt is in flight (a receiver may
 *   take up to the 30 s attempt limit), no later poll or `startDue()` starts another;
 * - a delivery due exactly now is sent now, and a broken scheduler fails a test by name
 *   instead of hanging the suite (every test here has its own time limit, and the loop under
 *   test is stopped after a bounded number of turns).
 */
import { describe, expect, it } from 'vitest';
import { DELIVERY_TIMEOUT_MS, type DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import { DeliveryQueue, type Delivery, type QueueState, type Target } from '../../src/satellites/notifications/queue.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import type { Clock } from '../../src/satellites/notifications/clock.js';
import { executionLog, T0 } from './execution-log.js';
import { fakeClock, flush } from './fake-clock.js';

const LIMIT = { timeout: 3_000 };

/** A receiver that answers only when the test says: every attempt stays in flight until then. */
function hangingTarget(now: () => number) {
  const attempts: { id: string; at: number; attempt: number }[] = [];
  const answers: ((outcome: DeliveryOutcome) => void)[] = [];
  const target: Target = {
    key: 'slow',
    label: 'webhook https://slow.example.com',
    send: (delivery) =>
      new Promise<DeliveryOutcome>((resolve) => {
        attempts.push({ id: delivery.id, at: now(), attempt: delivery.attempts });
        answers.push(resolve);
      }),
  };
  return { target, attempts, answerAll: (outcome: DeliveryOutcome) => answers.splice(0).forEach((answer) => answer(outcome)) };
}

function queueWith(target: Target, clock: ReturnType<typeof fakeClock>) {
  const state: QueueState = { deliveries: [] };
  const queue = new DeliveryQueue({ state, record: () => {}, targets: new Map([[target.key, target]]), clock, log: () => {}, random: () => 0 });
  const enqueue = (n: number) =>
    queue.enqueue({ target: target.key, eventId: `evt_${n}`, workflowId: 'wf-1', executionId: `exec-${n}`, body: `{"n":${n}}`, reasons: [] }) as Delivery;
  return { queue, enqueue };
}

describe('promise: a delivery is never sent twice at once', () => {
  it('a hanging attempt, the clock moved past every retry delay: later startDue() calls start nothing', LIMIT, async () => {
    const clock = fakeClock(T0);
    const slow = hangingTarget(clock.now);
    const { queue, enqueue } = queueWith(slow.target, clock);
    const delivery = enqueue(1);
    const first = queue.startDue();
    expect(first.count).toBe(1);
    await flush();
    for (const step of [1_000, 5_000, DELIVERY_TIMEOUT_MS, 10 * 60_000]) {
      clock.set(clock.now() + step);
      // Past the retry delay the first attempt recorded (5 s): "due" by its time, but in flight.
      expect(queue.startDue().count).toBe(0);
      expect(queue.nextDueAt()).toBeUndefined();
      await flush();
    }
    expect(slow.attempts).toEqual([{ id: delivery.id, at: T0, attempt: 1 }]);
    expect(delivery.attempts).toBe(1);
    slow.answerAll({ kind: 'status', status: 500 });
    await first.done;
    // Answered: its retry is due 5 s after the answer, and then goes once.
    clock.set(clock.now() + 5_000);
    expect(queue.startDue().count).toBe(1);
    expect(queue.startDue().count).toBe(0);
    await flush();
    expect(slow.attempts.map((a) => a.attempt)).toEqual([1, 2]);
  });

  it('a claim waiting behind the concurrency limit is not started again by a later poll', LIMIT, async () => {
    const clock = fakeClock(T0);
    const slow = hangingTarget(clock.now);
    const state: QueueState = { deliveries: [] };
    const queue = new DeliveryQueue({ state, record: () => {}, targets: new Map([[slow.target.key, slow.target]]), clock, log: () => {}, random: () => 0, concurrency: 1 });
    for (const n of [1, 2, 3]) queue.enqueue({ target: 'slow', eventId: `evt_${n}`, workflowId: 'wf-1', executionId: `exec-${n}`, body: '{}', reasons: [] });
    const batch = queue.startDue();
    expect(batch.count).toBe(3);
    await flush();
    clock.set(T0 + 60_000);
    // Two deliveries claimed but not yet started (one at a time): a poll must leave them to their batch.
    expect(queue.startDue().count).toBe(0);
    await flush();
    expect(slow.attempts.map((a) => a.id)).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      slow.answerAll({ kind: 'status', status: 200 });
      await flush();
    }
    await batch.done;
    expect(slow.attempts).toHaveLength(3);
    expect(new Set(slow.attempts.map((a) => a.id)).size).toBe(3);
    expect(queue.deliveries.map((d) => [d.state, d.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('the delivery loop: one attempt in flight however long the receiver hangs and however often the loop wakes', LIMIT, async () => {
    const clock = fakeClock(T0);
    const slow = hangingTarget(clock.now);
    const n = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true }),
      clock,
      targets: [slow.target],
      random: () => 0,
    });
    const stop = new AbortController();
    const loop = n.runDeliveries(stop.signal);
    n.executionCompleted(executionLog({ executionId: 'a' }));
    await clock.advance(0);
    // Other completions wake the loop while the first attempt hangs.
    for (let k = 0; k < 5; k++) {
      await clock.advance(10_000);
      n.executionCompleted(executionLog({ executionId: `other-${k}` }));
      await clock.advance(0);
    }
    expect(slow.attempts.filter((a) => a.attempt === 1)).toHaveLength(6);
    expect(new Set(slow.attempts.map((a) => a.id)).size).toBe(slow.attempts.length);
    stop.abort();
    slow.answerAll({ kind: 'status', status: 200 });
    await loop;
    expect(n.queue.deliveries.every((d) => d.state === 'delivered' && d.attempts === 1)).toBe(true);
  });
});

/**
 * A clock whose sleeps each take one turn of the event loop (never a microtask loop that
 * would starve vitest's own time limit), and which stops the loop under test after `maxTurns`
 * sleeps: a scheduler that spins on a wait of 0 ends, and the test says what it did.
 */
function boundedClock(start: number, stop: AbortController, maxTurns = 200) {
  let now = start;
  const waits: number[] = [];
  const clock: Clock & { waits: number[]; set(ms: number): void } = {
    now: () => now,
    waits,
    set: (ms) => void (now = ms),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        waits.push(ms);
        if (waits.length >= maxTurns) stop.abort();
        if (signal?.aborted) return reject(signal.reason);
        // Time does not move on its own: a wait ends at the next turn, or when woken.
        const timer = setImmediate(() => {
          signal?.removeEventListener('abort', onAbort);
          if (ms === 0) resolve();
        });
        const onAbort = () => {
          clearImmediate(timer);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
  return clock;
}

describe('promise: a delivery due exactly now is sent (a broken scheduler fails here, by name)', () => {
  it('startDue() sends a delivery whose due time is exactly the clock', LIMIT, async () => {
    const clock = fakeClock(T0);
    const sent: number[] = [];
    const target: Target = { key: 't', label: 't', send: async () => (sent.push(clock.now()), { kind: 'status', status: 500 }) };
    const { queue, enqueue } = queueWith(target, clock);
    const delivery = enqueue(1);
    expect(delivery.nextAttemptAt).toBe(T0);
    expect(await queue.runDue()).toBe(1);
    // The retry is due 5 s after the attempt started: at exactly that time it goes, not a millisecond later.
    expect(delivery.nextAttemptAt).toBe(T0 + 5_000);
    clock.set(T0 + 4_999);
    expect(await queue.runDue()).toBe(0);
    clock.set(T0 + 5_000);
    expect(await queue.runDue()).toBe(1);
    expect(sent).toEqual([T0, T0 + 5_000]);
  });

  it('the delivery loop sends a delivery due now without waiting, and then sleeps', LIMIT, async () => {
    const stop = new AbortController();
    const clock = boundedClock(T0, stop);
    const sent: string[] = [];
    const target: Target = { key: 't', label: 't', send: async (d) => (sent.push(d.executionId), { kind: 'status', status: 200 }) };
    const n = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true }),
      clock,
      targets: [target],
      random: () => 0,
    });
    n.executionCompleted(executionLog({ executionId: 'due-now' }));
    const loop = n.runDeliveries(stop.signal);
    for (let k = 0; k < 20 && sent.length === 0 && !stop.signal.aborted; k++) await flush();
    const turns = clock.waits.length;
    stop.abort();
    await loop;
    expect(sent, `sent nothing; the loop slept ${turns} times: ${clock.waits.slice(0, 10).join(', ')}…`).toEqual(['due-now']);
    // With nothing left due it sleeps its idle wait, not 0 ms over and over.
    expect(clock.waits.filter((ms) => ms === 0).length).toBeLessThan(3);
  });
});
