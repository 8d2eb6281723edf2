/**
 * Issue 44, item 2: the delivery queue's options at values where getting them wrong shows:
 * `concurrency` at its default (8: one too many or too few shows only with more than 8 due)
 * and at 3, and `timeoutMs` as the milliseconds each attempt is given (its default, 30 000).
 */
import { describe, expect, it } from 'vitest';
import { DELIVERY_TIMEOUT_MS, type DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import { DeliveryQueue, type QueueOptions, type QueueState, type Target } from '../../src/satellites/notifications/queue.js';
import { T0 } from './execution-log.js';
import { fakeClock, flush } from './fake-clock.js';

/** A receiver that holds every attempt until the test answers it, and remembers the time limit it was given. */
function hangingTarget() {
  const inFlight: ((outcome: DeliveryOutcome) => void)[] = [];
  const limits: number[] = [];
  const target: Target = {
    key: 'slow',
    label: 'slow',
    send: (_delivery, timeoutMs) =>
      new Promise<DeliveryOutcome>((resolve) => {
        limits.push(timeoutMs);
        inFlight.push(resolve);
      }),
  };
  /** Answers every attempt, each as it starts, until the batch is done. */
  async function answerUntilDone(batch: { done: Promise<void> }) {
    let done = false;
    void batch.done.then(() => (done = true));
    while (!done) {
      inFlight.forEach((answer) => answer({ kind: 'status', status: 200 }));
      await flush();
    }
  }
  return { target, inFlight, limits, answerUntilDone };
}

function queueOf(target: Target, options: Partial<QueueOptions> = {}) {
  const state: QueueState = { deliveries: [] };
  const queue = new DeliveryQueue({ state, record: () => {}, targets: new Map([[target.key, target]]), clock: fakeClock(T0), log: () => {}, random: () => 0, ...options });
  for (let n = 0; n < 12; n++) queue.enqueue({ target: target.key, eventId: `evt_${n}`, workflowId: 'wf', executionId: `e${n}`, body: '{}', reasons: [] });
  return queue;
}

describe('DeliveryQueue options', () => {
  it('concurrency: 8 attempts at once by default, with 12 due; the rest as each ends', async () => {
    const slow = hangingTarget();
    const batch = queueOf(slow.target).startDue();
    expect(batch.count).toBe(12);
    await flush();
    expect(slow.inFlight).toHaveLength(8);
    slow.inFlight[0]!({ kind: 'status', status: 200 });
    await flush();
    expect(slow.inFlight).toHaveLength(9);
    await slow.answerUntilDone(batch);
    expect(slow.inFlight).toHaveLength(12);
  });

  it('concurrency: 3 means 3 at once', async () => {
    const slow = hangingTarget();
    const batch = queueOf(slow.target, { concurrency: 3 }).startDue();
    await flush();
    expect(slow.inFlight).toHaveLength(3);
    await slow.answerUntilDone(batch);
    expect(slow.inFlight).toHaveLength(12);
  });

  it('timeoutMs: each attempt is given the option in milliseconds, 30 000 by default', async () => {
    for (const [options, expected] of [[{}, 30_000], [{ timeoutMs: 1_500 }, 1_500]] as const) {
      const slow = hangingTarget();
      await slow.answerUntilDone(queueOf(slow.target, { concurrency: 1, ...options }).startDue());
      expect(new Set(slow.limits)).toEqual(new Set([expected]));
    }
    expect(DELIVERY_TIMEOUT_MS).toBe(30_000);
  });
});
