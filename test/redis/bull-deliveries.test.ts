/**
 * The Redis store's BullMQ deliveries (src/satellites/notifications/redis/bull-deliveries.ts) in this
 * process, against a real redis-server: `--once` (deliverDue), an outbox left by a holder
 * that died, a holder whose lease is no longer valid (sends nothing), and the Worker's
 * settings that make a takeover re-send only what was in flight.
 */
import * as bullmq from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, type DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import type { Delivery, Target } from '../../src/satellites/notifications/queue.js';
import { BullDeliveries } from '../../src/satellites/notifications/redis/bull-deliveries.js';
import { monitorRedis, type MonitorRedis } from '../../src/satellites/notifications/redis/client.js';
import { specBackoff } from '../../src/satellites/notifications/redis/delivery-job.js';
import { monitorKeys } from '../../src/satellites/notifications/redis/keys.js';
import { Lease } from '../../src/satellites/notifications/redis/lease.js';
import { RedisStateStore } from '../../src/satellites/notifications/redis/state-store.js';
import { initialRulesState } from '../../src/satellites/notifications/rule-engine.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import { executionLog } from '../notifications/execution-log.js';
import { until } from '../helpers/monitor-process.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
let raw: Redis;
const closing: (() => Promise<unknown> | void)[] = [];
beforeAll(async () => {
  server = await startRedisServer();
  raw = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  await raw.flushall();
});
afterAll(async () => {
  raw.disconnect();
  await server.stop();
});

const BASE = 'https://platform.example.com';
const keys = monitorKeys(BASE, 'ws-bull');
const LEASE_MS = 5_000;

/** A target that records each attempt and answers as `answer` says. */
function recorder(answer: (executionId: string) => DeliveryOutcome = () => ({ kind: 'status', status: 200 })) {
  const sent: string[] = [];
  const given: { nextAttemptAt: number; timeoutMs: number }[] = [];
  const target: Target = {
    key: 'hook',
    label: 'webhook https://r.example.com',
    send(d, timeoutMs) {
      sent.push(d.executionId);
      given.push({ nextAttemptAt: d.nextAttemptAt, timeoutMs });
      return Promise.resolve(answer(d.executionId));
    },
  };
  return { sent, given, target };
}

/** BullMQ with its Worker recorded, to read the settings the deliveries give it. */
function recordingBullmq() {
  const workers: bullmq.Worker[] = [];
  class Worker<T> extends bullmq.Worker<T> {
    constructor(...args: ConstructorParameters<typeof bullmq.Worker<T>>) {
      super(...args);
      workers.push(this as bullmq.Worker);
    }
  }
  return { module: { ...bullmq, Worker } as unknown as typeof bullmq, workers };
}

/** The lease, a monitor client and BullMQ's own connection, as the Redis backend opens them; closed after the test. */
async function leaseHolder() {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const redis: MonitorRedis = monitorRedis({ Redis }, server.url, 500);
  closing.push(() => redis.disconnect());
  const connection = new Redis(server.url, { maxRetriesPerRequest: null });
  closing.push(() => connection.quit());
  const lease = (await Lease.acquire({ redis, keys, leaseMs: LEASE_MS, log }, new AbortController().signal))!;
  closing.push(() => lease.release());
  return { lines, log, redis, connection, lease };
}

/** A lease holder with its store, notifier and BullMQ deliveries, as the Redis backend builds them. */
async function holder(target: Target, options: { loaded?: boolean; bull?: typeof bullmq } = {}) {
  const { lines, log, redis, connection, lease } = await leaseHolder();
  const loaded = await RedisStateStore.read(redis, keys, lease, log);
  const store = new RedisStateStore(redis, keys, lease, loaded, log);
  const notifier = new Notifier({ settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h', secret: 'whsec-bull' }], allWorkflows: true }), store, targets: [target], log });
  const deliveries = new BullDeliveries({ bullmq: options.bull ?? bullmq, connection, keys, lease, store, notifier, leaseMs: LEASE_MS, log, random: () => 0 });
  const queue = new bullmq.Queue(keys.queueName, { connection: raw, prefix: keys.bullPrefix });
  closing.push(() => queue.close());
  return { lines, lease, store, notifier, deliveries, queue };
}

describe('BullMQ deliveries', () => {
  it('--once: hands the outbox over, sends what is due, counts every attempt, and leaves a retry for the next run', async () => {
    const r = recorder((id) => (id === 'exec-3' ? { kind: 'status', status: 503 } : { kind: 'status', status: 200 }));
    const h = await holder(r.target);
    for (const n of [1, 2, 3]) h.notifier.executionCompleted(executionLog({ n }));
    await h.notifier.flush();
    const started = Date.now();
    const count = await h.deliveries.deliverDue();
    // Not the 5 s of the retry: it waits for nothing that is not due.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(count).toBe(3);
    expect(r.sent.sort()).toEqual(['exec-1', 'exec-2', 'exec-3']);
    // The outbox is empty, in this process and in Redis: the write that emptied it got in before deliverDue returned.
    expect(h.notifier.queue.pending()).toEqual([]);
    expect(JSON.parse((await raw.get(keys.state))!).queue.deliveries).toEqual([]);
    const completed = await h.queue.getJobs(['completed']);
    expect(completed).toHaveLength(2);
    for (const job of completed) {
      expect(job.id).toBe(job.data.id);
      expect(job.name).toBe('delivery');
      expect(job.opts).toMatchObject({ attempts: MAX_ATTEMPTS, backoff: { type: 'spec' }, removeOnComplete: { age: 86_400 }, removeOnFail: { age: 86_400 } });
    }
    expect((await h.queue.getJobs(['delayed'])).map((j) => j.data.executionId)).toEqual(['exec-3']);
    // The jitter source given (none here): exactly the schedule's first delay.
    expect(h.lines.find((l) => l.includes('exec-3 attempt 1'))).toMatch(/: HTTP 503, retry in 5 s$/);
    // Each attempt due now, within the default time limit of a delivery (30 s).
    for (const g of r.given) {
      expect(g.timeoutMs).toBe(30_000);
      expect(Math.abs(g.nextAttemptAt - Date.now())).toBeLessThan(60_000);
    }
  });

  it('hands over at start what a holder that died left in the outbox, and sends it once', async () => {
    const pending: Delivery = { id: 'dlv_left', target: 'hook', eventId: 'evt', workflowId: 'wf', executionId: 'exec-left', body: '{}', reasons: [], createdAt: 1, attempts: 0, nextAttemptAt: 1, state: 'pending' };
    const delivered: Delivery = { ...pending, id: 'dlv_done', executionId: 'exec-done', state: 'delivered' };
    await raw.set(keys.fence, '0');
    await raw.set(keys.state, JSON.stringify({ version: 1, rules: { ...initialRulesState(0), since: 0 }, queue: { deliveries: [pending, delivered] } }));
    const r = recorder();
    const h = await holder(r.target);
    expect(await h.deliveries.deliverDue()).toBe(1);
    expect(r.sent).toEqual(['exec-left']);
    expect(h.notifier.queue.pending()).toEqual([]);
  });

  it('says in one line when a hand-over fails, keeps the outbox\'s other deliveries, and hands over nothing for an empty outbox', async () => {
    const { lines, log, connection, lease } = await leaseHolder();
    const pending: Delivery = { id: 'dlv_h', target: 'hook', eventId: 'evt', workflowId: 'wf', executionId: 'exec-h', body: '{}', reasons: [], createdAt: 1, attempts: 0, nextAttemptAt: 1, state: 'pending' };
    const delivered: Delivery = { ...pending, id: 'dlv_d', executionId: 'exec-d', state: 'delivered' };
    const build = (deliveries: Delivery[], save: () => void) => {
      const notifier = { state: { queue: { deliveries } }, save, targetMap: new Map() };
      const store = { onCommit: undefined, flush: () => Promise.resolve() };
      return { notifier, deliveries: new BullDeliveries({ bullmq, connection, keys, lease, store: store as never, notifier: notifier as never, leaseMs: LEASE_MS, log }) };
    };

    let saves = 0;
    const failing = build([pending, delivered], () => {
      saves++;
      throw new Error('disk full');
    });
    await failing.deliveries.settled();
    expect(lines).toEqual(['deliveries could not be queued: disk full; the next holder queues them from the outbox']);
    expect(saves).toBe(1);
    expect(failing.notifier.state.queue.deliveries).toEqual([delivered]);
    expect(await raw.exists(`${keys.bullPrefix}:${keys.queueName}:dlv_h`)).toBe(1);

    saves = 0;
    const empty = build([delivered], () => saves++);
    // A hand-over, were there one, has run and written once this resolves (before the lease ends, which would stop it).
    await empty.deliveries.settled();
    expect(saves).toBe(0);
    lease.lose('done');
    await empty.deliveries.runDeliveries(AbortSignal.abort());
    await failing.deliveries.runDeliveries(AbortSignal.abort());
    // Nothing pending: no hand-over, so no write of an unchanged outbox.
    expect(saves).toBe(0);
    expect(empty.notifier.state.queue.deliveries).toEqual([delivered]);
  });

  it('settled() waits for every hand-over, one chained while it waits included', async () => {
    const { lines, log, connection, lease } = await leaseHolder();
    const delivery = (id: string): Delivery => ({ id, target: 'hook', eventId: 'evt', workflowId: 'wf', executionId: `exec-${id}`, body: '{}', reasons: [], createdAt: 1, attempts: 0, nextAttemptAt: 1, state: 'pending' });
    const [first, second] = [delivery('dlv_s1'), delivery('dlv_s2')];
    let saves = 0;
    const notifier = { state: { queue: { deliveries: [first] } }, save: () => saves++, targetMap: new Map() };
    const store: { onCommit?: (outbox: Delivery[]) => void; flush: () => Promise<void> } = { flush: () => Promise.resolve() };
    // Hands over the outbox's pending delivery at start.
    const deliveries = new BullDeliveries({ bullmq, connection, keys, lease, store: store as never, notifier: notifier as never, leaseMs: LEASE_MS, log });
    const waiting = deliveries.settled();
    // A commit while settled() waits for the first hand-over: its hand-over is chained after it.
    notifier.state.queue.deliveries.push(second);
    store.onCommit!([second]);
    await waiting;
    expect(saves).toBe(2);
    expect(notifier.state.queue.deliveries).toEqual([]);
    for (const id of ['dlv_s1', 'dlv_s2']) expect(await raw.exists(`${keys.bullPrefix}:${keys.queueName}:${id}`)).toBe(1);
    expect(lines).toEqual([]);
    lease.lose('done');
    await deliveries.runDeliveries(AbortSignal.abort());
  });

  it('sends nothing once its lease is not valid: the job goes back to wait, no attempt counted', async () => {
    const r = recorder();
    const h = await holder(r.target);
    await h.queue.add('delivery', { id: 'dlv_w', target: 'hook', eventId: 'e', workflowId: 'wf', executionId: 'exec-w', body: '{}', reasons: [], createdAt: 1 }, { jobId: 'dlv_w' });
    h.lease.lose('taken over');
    const stop = new AbortController();
    const running = h.deliveries.runDeliveries(stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 600));
    stop.abort();
    await running;
    expect(r.sent).toEqual([]);
    const job = await h.queue.getJob('dlv_w');
    expect(job?.attemptsMade).toBe(0);
    // Back in wait, or still active when the forced close came mid-move (the next holder finds it stalled): never done.
    expect(['waiting', 'active']).toContain(await job?.getState());
  });

  it('runs its Worker with locks as long as the lease, and says what a stalled or failing worker means', async () => {
    const bull = recordingBullmq();
    const h = await holder(recorder().target, { bull: bull.module });
    const stop = new AbortController();
    const running = h.deliveries.runDeliveries(stop.signal);
    await until(() => bull.workers.length === 1, 5_000, 'the worker');
    const worker = bull.workers[0]!;
    expect(worker.opts).toMatchObject({ prefix: keys.bullPrefix, concurrency: 8, lockDuration: LEASE_MS, stalledInterval: 2_500, maxStalledCount: MAX_ATTEMPTS });
    expect(worker.opts.settings?.backoffStrategy).toBe(specBackoff);
    expect(worker.name).toBe(keys.queueName);

    worker.emit('stalled', 'dlv_s', 'active');
    worker.emit('failed', { id: 'dlv_f' } as bullmq.Job, new Error('job stalled more than allowable limit'), 'active');
    worker.emit('failed', { id: 'dlv_g' } as bullmq.Job, new Error('HTTP 400'), 'active');
    worker.emit('failed', undefined, new Error('job stalled more than allowable limit'), 'active');
    worker.emit('error', new Error('connection reset'));
    worker.emit('error', new Error('connection reset again'));
    worker.emit('active', { id: 'dlv_a' } as bullmq.Job, 'waiting');
    expect(h.lines.filter((l) => !l.startsWith('lease'))).toEqual([
      'delivery dlv_s was in flight at a monitor that stopped: sending it again',
      `delivery dlv_f: its monitors stopped during ${MAX_ATTEMPTS} attempts, giving up`,
      'delivery worker: connection reset; retrying',
      expect.stringMatching(/^delivery worker: recovered after \d+\.\d s$/),
    ]);
    stop.abort();
    await running;
  });
});
