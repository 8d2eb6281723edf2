import { describe, expect, it } from 'vitest';
import { DeliveryQueue, deliveryIdFor, replayProgress, type Delivery, type DeliveryProgress, type QueueState, type Target } from '../../src/satellites/notifications/queue.js';
import { MAX_ATTEMPTS, type DeliveryOutcome as AttemptOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import { fakeClock } from './fake-clock.js';

const T0 = Date.UTC(2026, 0, 5, 12);
const DAY = 24 * 3_600_000;

function delivery(id: string, fields: Partial<Delivery> = {}): Delivery {
  return { id, target: 'hook', eventId: `evt_${id}`, workflowId: 'wf', executionId: id, body: `{"id":"${id}"}`, reasons: [], createdAt: T0, attempts: 0, nextAttemptAt: T0, state: 'pending', ...fields };
}

function queueOf(deliveries: Delivery[], send: (d: Delivery) => Promise<AttemptOutcome>, options: { concurrency?: number; targets?: string[] } = {}) {
  const clock = fakeClock(T0);
  const state: QueueState = { deliveries };
  const recorded: DeliveryProgress[] = [];
  const sent: string[] = [];
  const targets = new Map<string, Target>(
    (options.targets ?? ['hook']).map((key) => [key, { key, label: `webhook ${key}`, send: (d: Delivery) => (sent.push(d.id), send(d)) }]),
  );
  const queue = new DeliveryQueue({ state, record: (p) => recorded.push(p), targets, clock, log: () => {}, random: () => 0, concurrency: options.concurrency });
  return { queue, state, recorded, sent, clock };
}

describe('the delivery queue, field by field', () => {
  it('derives a delivery id from target and event: dlv_ and 32 hex digits', () => {
    const id = deliveryIdFor('hook', 'evt_1');
    expect(id).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect(deliveryIdFor('hook', 'evt_1')).toBe(id);
    expect(new Set([id, deliveryIdFor('hook', 'evt_2'), deliveryIdFor('other', 'evt_1')]).size).toBe(3);
  });

  it('replays journaled progress: new values, earlier results kept, the body dropped once finished, unknown ids skipped', () => {
    const state: QueueState = { deliveries: [delivery('a', { lastResult: 'HTTP 503' }), delivery('b')] };
    replayProgress(state, [
      { event: 'attempt-started', id: 'a', attempts: 2, nextAttemptAt: T0 + 5, state: 'pending' },
      { event: 'attempt-ended', id: 'b', attempts: 1, nextAttemptAt: T0, state: 'delivered', lastResult: 'HTTP 200', finishedAt: T0 + 9 },
      { event: 'dropped', id: 'gone', attempts: 1, nextAttemptAt: T0, state: 'failed' },
    ]);
    expect(state.deliveries[0]).toMatchObject({ attempts: 2, nextAttemptAt: T0 + 5, state: 'pending', lastResult: 'HTTP 503', body: '{"id":"a"}' });
    expect(state.deliveries[0]!.finishedAt).toBeUndefined();
    expect(state.deliveries[1]).toMatchObject({ attempts: 1, state: 'delivered', lastResult: 'HTTP 200', finishedAt: T0 + 9, body: '' });
  });

  it('is next due at the earliest pending delivery, not a finished one', () => {
    const { queue } = queueOf(
      [delivery('late', { nextAttemptAt: T0 + 3000 }), delivery('done', { nextAttemptAt: T0 - 5000, state: 'delivered' }), delivery('soon', { nextAttemptAt: T0 + 1000 }), delivery('later', { nextAttemptAt: T0 + 2000 })],
      async () => ({ kind: 'status', status: 200 }),
    );
    expect(queue.nextDueAt()).toBe(T0 + 1000);
    expect(queueOf([delivery('x', { state: 'failed' })], async () => ({ kind: 'status', status: 200 })).queue.nextDueAt()).toBeUndefined();
  });

  it('sends the due deliveries oldest due first, one at a time with concurrency 1, and none twice', async () => {
    const { queue, sent, clock } = queueOf(
      [delivery('b', { nextAttemptAt: T0 - 1000 }), delivery('c', { nextAttemptAt: T0 + 1 }), delivery('a', { nextAttemptAt: T0 - 2000 })],
      async () => ({ kind: 'status', status: 200 }),
      { concurrency: 1 },
    );
    const first = queue.startDue();
    expect(first.count).toBe(2);
    expect(queue.startDue().count).toBe(0);
    expect(queue.nextDueAt()).toBe(T0 + 1);
    await first.done;
    expect(sent).toEqual(['a', 'b']);
    clock.set(T0 + 1);
    expect(await queue.runDue()).toBe(1);
    expect(sent).toEqual(['a', 'b', 'c']);
  });

  it('records why it gave a delivery up, and what each attempt came to', async () => {
    const outcomes: AttemptOutcome[] = [{ kind: 'status', status: 503 }, { kind: 'status', status: 400 }];
    const { queue, state, recorded } = queueOf(
      [delivery('orphan', { target: 'removed' }), delivery('spent', { attempts: MAX_ATTEMPTS }), delivery('flaky'), delivery('refused', { nextAttemptAt: T0 + 1 })],
      async () => outcomes.shift()!,
    );
    await queue.runDue();
    const byId = Object.fromEntries(state.deliveries.map((d) => [d.id, d]));
    expect(byId.orphan).toMatchObject({ state: 'failed', lastResult: 'its channel is no longer configured', finishedAt: T0, body: '' });
    expect(byId.spent).toMatchObject({ state: 'failed', lastResult: 'the monitor stopped during the last attempt; its outcome is unknown', finishedAt: T0 });
    expect(byId.flaky).toMatchObject({ state: 'pending', attempts: 1, lastResult: 'HTTP 503', nextAttemptAt: T0 + 5_000 });
    expect(recorded.map((p) => [p.id, p.event])).toEqual([
      ['orphan', 'dropped'],
      ['spent', 'dropped'],
      ['flaky', 'attempt-started'],
      ['flaky', 'attempt-ended'],
    ]);
  });

  it('counts a channel that throws as a retryable failure, with its message or a default', async () => {
    const errors = [new Error('smtp down'), new Error('')];
    const { queue, state } = queueOf([delivery('a'), delivery('b')], async () => {
      throw errors.shift();
    }, { concurrency: 1 });
    await queue.runDue();
    expect(state.deliveries.map((d) => [d.state, d.lastResult])).toEqual([
      ['pending', 'smtp down'],
      ['pending', 'the channel failed'],
    ]);
  });

  it('forgets finished deliveries a day after they finished, never pending ones', () => {
    const { queue, state, clock } = queueOf(
      [delivery('old', { state: 'delivered', finishedAt: T0 - DAY }), delivery('recent', { state: 'failed', finishedAt: T0 - DAY + 1 }), delivery('waiting', { createdAt: T0 - 2 * DAY })],
      async () => ({ kind: 'status', status: 200 }),
    );
    clock.set(T0);
    queue.enqueue({ target: 'hook', eventId: 'evt_new', workflowId: 'wf', executionId: 'new', body: '{}', reasons: [] });
    expect(state.deliveries.map((d) => d.executionId)).toEqual(['recent', 'waiting', 'new']);
  });
});
