import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryQueue, deliveryIdFor, replayProgress, type DeliveryProgress, type QueueState, type Target } from '../../src/satellites/notifications/queue.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, deliveryRetryDelayMs, type DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import { jsonFileStore, type StateStore } from '../../src/satellites/notifications/store.js';
import { fakeClock } from './fake-clock.js';

const status = (code: number): DeliveryOutcome => ({ kind: 'status', status: code });

interface Sent {
  id: string;
  at: number;
  attempt: number;
}

function setup(options: {
  outcomes: DeliveryOutcome[];
  random?: () => number;
  store?: StateStore<QueueState>;
  clock?: ReturnType<typeof fakeClock>;
}) {
  const clock = options.clock ?? fakeClock();
  const state = loadQueue(options.store);
  const sent: Sent[] = [];
  const lines: string[] = [];
  const target: Target = {
    key: 'target-1',
    label: 'webhook https://hooks.example.com',
    async send(delivery) {
      sent.push({ id: delivery.id, at: clock.now(), attempt: delivery.attempts });
      return options.outcomes.shift() ?? status(200);
    },
  };
  const queue = new DeliveryQueue({
    state,
    record: (progress) => (options.store?.append ? options.store.append(progress) : options.store?.save(state)),
    targets: new Map([[target.key, target]]),
    clock,
    log: (line) => lines.push(line),
    random: options.random ?? (() => 0),
  });
  const enqueue = () =>
    queue.enqueue({ target: 'target-1', eventId: 'evt_exec-1', workflowId: 'wf-1', executionId: 'exec-1', body: '{"id":"evt_exec-1"}', reasons: [] });
  /** Runs attempts, moving the clock to each due time, until nothing is pending. */
  async function drain() {
    for (let due = queue.nextDueAt(); due !== undefined; due = queue.nextDueAt()) {
      clock.set(Math.max(clock.now(), due));
      await queue.runDue();
    }
  }
  return { clock, state, sent, lines, queue, enqueue, drain };
}

/** The queue as a restarted process sees it: the saved state with the journal replayed on it. */
function loadQueue(store?: StateStore<QueueState>): QueueState {
  const state = store?.load() ?? { deliveries: [] };
  replayProgress(state, (store?.journal?.().events ?? []) as DeliveryProgress[]);
  return state;
}

const gaps = (sent: Sent[]) => sent.slice(1).map((s, i) => s.at - (sent[i] as Sent).at);

describe('retry schedule', () => {
  it('uses every listed delay: five retries after the first attempt, six requests in all', async () => {
    const t = setup({ outcomes: Array.from({ length: 6 }, () => status(503)) });
    t.enqueue();
    await t.drain();
    expect(t.sent).toHaveLength(MAX_ATTEMPTS);
    expect(MAX_ATTEMPTS).toBe(6);
    expect(gaps(t.sent)).toEqual([5_000, 15_000, 60_000, 180_000, 600_000]);
    expect(t.queue.deliveries[0]?.state).toBe('failed');
    expect(t.lines.at(-1)).toMatch(/attempt 6\/6: HTTP 503, giving up \(schedule used up\)/);
  });

  it('adds at most 10% jitter, never less than the listed delay', async () => {
    const draws = [0.999, 0.5, 0.25, 0.75, 0.1];
    const t = setup({ outcomes: Array.from({ length: 6 }, () => status(500)), random: () => draws.shift() ?? 0 });
    t.enqueue();
    await t.drain();
    const observed = gaps(t.sent);
    expect(observed).toHaveLength(5);
    observed.forEach((gap, i) => {
      const base = RETRY_DELAYS_MS[i] as number;
      expect(gap).toBeGreaterThanOrEqual(base);
      expect(gap).toBeLessThanOrEqual(base * 1.1);
    });
    expect(observed[0]).toBe(Math.round(5_000 * 1.0999));
    expect(observed[1]).toBe(15_000 * 1.05);
  });

  it('deliveryRetryDelayMs spans exactly [delay, delay × 1.1] and ends after the fifth retry', () => {
    expect(deliveryRetryDelayMs(1, () => 0)).toBe(5_000);
    expect(deliveryRetryDelayMs(1, () => 1)).toBe(5_500);
    expect(deliveryRetryDelayMs(5, () => 1)).toBe(660_000);
    expect(deliveryRetryDelayMs(6, () => 0)).toBeUndefined();
  });

  it.each([400, 401, 403, 404, 409, 410, 422, 301, 302])('does not retry HTTP %i', async (code) => {
    const t = setup({ outcomes: [status(code)] });
    t.enqueue();
    await t.drain();
    expect(t.sent).toHaveLength(1);
    expect(t.queue.deliveries[0]?.state).toBe('failed');
    expect(t.lines[0]).toMatch(/not retryable/);
  });

  it.each<[string, DeliveryOutcome]>([
    ['429', status(429)],
    ['502', status(502)],
    ['a time-out', { kind: 'timeout', afterMs: 30_000 }],
    ['a connection fault', { kind: 'network', message: 'connection failed (ECONNREFUSED)' }],
  ])('retries after %s and acknowledges on the next 2xx', async (_name, outcome) => {
    const t = setup({ outcomes: [outcome, status(204)] });
    t.enqueue();
    await t.drain();
    expect(t.sent.map((s) => s.attempt)).toEqual([1, 2]);
    expect(gaps(t.sent)).toEqual([5_000]);
    expect(t.queue.deliveries[0]?.state).toBe('delivered');
  });

  it('keeps one delivery id across attempts, derived from target and event', async () => {
    const t = setup({ outcomes: [status(503), status(503), status(202)] });
    t.enqueue();
    await t.drain();
    expect(new Set(t.sent.map((s) => s.id))).toEqual(new Set([deliveryIdFor('target-1', 'evt_exec-1')]));
    expect(t.enqueue()).toBeUndefined(); // the same event is not queued twice
  });
});

describe('settings changed between runs', () => {
  it('drops a pending delivery whose channel is gone, and says so', async () => {
    const t = setup({ outcomes: [] });
    const orphan = t.queue.enqueue({ target: 'removed-channel', eventId: 'evt_x', workflowId: 'wf', executionId: 'x', body: '{}', reasons: [] });
    await t.queue.runDue();
    expect(t.sent).toEqual([]);
    expect(t.queue.deliveries.find((d) => d.id === orphan?.id)?.state).toBe('failed');
    expect(t.lines).toEqual([`delivery ${orphan?.id} dropped: its channel is no longer in the settings`]);
  });
});

describe('persisted queue', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('resumes a retry series after a restart, with the same id and the remaining delays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowblocks-queue-'));
    dirs.push(dir);
    const store = jsonFileStore<QueueState>(join(dir, 'state.json'));
    const clock = fakeClock();
    const first = setup({ outcomes: [status(503), status(503)], store, clock });
    first.enqueue();
    store.save(first.state);
    await first.queue.runDue();
    clock.set(first.queue.nextDueAt() as number);
    await first.queue.runDue();
    expect(first.sent).toHaveLength(2);
    // The process dies here; a new one loads the file.
    const second = setup({ outcomes: [status(503), status(200)], store, clock });
    expect(second.queue.pending()).toHaveLength(1);
    expect(second.queue.pending()[0]?.attempts).toBe(2);
    await second.queue.runDue();
    expect(second.sent).toHaveLength(0); // not due yet: 15 s after the second attempt
    await second.drain();
    const all = [...first.sent, ...second.sent];
    expect(all.map((s) => s.attempt)).toEqual([1, 2, 3, 4]);
    expect(gaps(all)).toEqual([5_000, 15_000, 60_000]);
    expect(new Set(all.map((s) => s.id)).size).toBe(1);
    expect(loadQueue(store).deliveries[0]?.state).toBe('delivered');
    // The outcomes are in the journal beside the state file; no temp file is left behind.
    expect(readdirSync(dir).sort()).toEqual(['state.journal', 'state.json']);
  });

  it('counts an attempt the process died in, and retries it one delay after it started', async () => {
    const clock = fakeClock();
    let saved: QueueState | undefined;
    const store: StateStore<QueueState> = { load: () => saved && structuredClone(saved), save: (v) => (saved = structuredClone(v)) };
    const first = setup({ outcomes: [], store, clock });
    first.enqueue();
    // The first attempt never answers: the process is killed while it is in flight.
    const target = { key: 'target-1', label: 'x', send: () => new Promise<DeliveryOutcome>(() => {}) };
    const dying = new DeliveryQueue({ state: first.state, record: () => store.save(first.state), targets: new Map([['target-1', target]]), clock, log: () => {}, random: () => 0 });
    void dying.runDue();
    await Promise.resolve();
    const second = setup({ outcomes: [status(200)], store, clock });
    const pending = second.queue.pending()[0];
    expect(pending?.attempts).toBe(1);
    // Due the first delay after the attempt started (the process that made it is gone, so
    // there is no answer to wait 30 s for), not at once.
    expect(pending?.nextAttemptAt).toBe(clock.now() + 5_000);
    await second.drain();
    expect(second.sent).toEqual([{ id: pending?.id, at: clock.now(), attempt: 2 }]);
  });
});
