/**
 * The Redis store with the notifier, against a real redis-server: ids from outside as data,
 * never as keys; no secret in Redis; BullMQ with the delivery id as job id and the spec's
 * schedule as its backoff.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import type { MonitorBackend, MonitorSession } from '../../src/satellites/notifications/monitor-backend.js';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import type { Target } from '../../src/satellites/notifications/queue.js';
import { redisBackend } from '../../src/satellites/notifications/redis/backend.js';
import { monitorKeys } from '../../src/satellites/notifications/redis/keys.js';
import { parseSettings, type NotificationSettingsInput } from '../../src/satellites/notifications/settings.js';
import { executionLog } from '../notifications/execution-log.js';
import { dumpRedis } from './redis-dump.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { until } from './monitor-platform.js';

const BASE = 'https://platform.example.com';
const CHAT_URL = 'https://hooks.example.com/services/T000/B000/chat-secret-canary-91f3';
const HOOK_SECRET = 'whsec-store-canary-2a77';

let server: RedisServer;
let raw: Redis;
const open: { backend: MonitorBackend; session: MonitorSession; stop: AbortController; running: Promise<void> }[] = [];
beforeAll(async () => {
  server = await startRedisServer();
  raw = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterEach(async () => {
  for (const m of open.splice(0)) {
    m.stop.abort();
    await m.running;
    await m.session.end();
    await m.backend.close();
  }
  await raw.flushall();
});
afterAll(async () => {
  raw.disconnect();
  await server.stop();
});

/** A target that records each attempt's execution and answers as `answer` says. */
function recorder(answer: (executionId: string) => DeliveryOutcome) {
  const sent: { id: string; executionId: string; workflowId: string }[] = [];
  const target: Target = {
    key: 'hook',
    label: 'webhook https://r.example.com',
    send(d) {
      sent.push({ id: d.id, executionId: d.executionId, workflowId: d.workflowId });
      return Promise.resolve(answer(d.executionId));
    },
  };
  return { sent, target };
}

/** A monitor session on the Redis store with the notifier and its BullMQ deliveries running. */
async function start(settings: NotificationSettingsInput, targets: Target[] | undefined, lines: string[] = []) {
  const log = (line: string) => lines.push(line);
  const backend = await redisBackend({ url: server.url, baseUrl: BASE, workspaceId: 'ws-1', leaseMs: 5_000, log });
  const session = (await backend.acquire(new AbortController().signal, { wait: false }))!;
  const notifier = new Notifier({ settings: parseSettings(settings), store: session.store, targets, log });
  const stop = new AbortController();
  const running = session.deliveries(notifier).runDeliveries(stop.signal);
  open.push({ backend, session, stop, running });
  return { notifier, lines, session };
}

const webhookOnly: NotificationSettingsInput = { channels: [{ type: 'webhook', url: 'https://r.example.com/h', secret: HOOK_SECRET }], allWorkflows: true };
const HOSTILE = ['__proto__', 'constructor', '..', 'toString', 'hasOwnProperty'];

describe('Redis store', () => {
  it('keeps hostile workflow and execution ids as data: watched, alerted, delivered, never a key', async () => {
    const ok = recorder(() => ({ kind: 'status', status: 200 }));
    const settings = { ...webhookOnly, alertRules: [{ type: 'consecutive_failures' as const, count: 1 }] };
    const first = await start(settings, [ok.target]);
    for (const id of HOSTILE) first.notifier.executionCompleted(executionLog({ n: 1, id, workflowId: id, executionId: id, level: 'error' }));
    await first.notifier.flush();
    await until(() => ok.sent.length === HOSTILE.length, 10_000, 'every hostile execution delivered');
    expect(ok.sent.map((s) => s.executionId).sort()).toEqual([...HOSTILE].sort());
    expect(ok.sent.map((s) => s.workflowId).sort()).toEqual([...HOSTILE].sort());
    expect(Object.getPrototypeOf(first.notifier.state.rules.workflows)).toBeNull();

    // Read back by the next holder: each id is an own key of a dictionary, the prototype untouched.
    const { session } = open.pop()!;
    await session.end();
    const next = await start(settings, [ok.target]);
    const workflows = next.notifier.state.rules.workflows;
    for (const id of HOSTILE) expect(Object.hasOwn(workflows, id), id).toBe(true);
    expect(workflows.__proto__?.consecutiveFailures).toBe(1);
    expect(({} as Record<string, unknown>).consecutiveFailures).toBeUndefined();
    // The same executions again (as after a takeover): the same delivery ids, which BullMQ already has.
    for (const id of HOSTILE) next.notifier.executionCompleted(executionLog({ n: 1, id, workflowId: id, executionId: id, level: 'error', endedAt: new Date(Date.now() + 7_200_000).toISOString() }));
    await next.notifier.flush();
    await until(() => next.notifier.queue.pending().length === 0, 10_000, 'the outbox handed over');

    const { keys } = await dumpRedis(server.url);
    for (const key of keys) {
      expect(key.startsWith('flowblocks:'), key).toBe(true);
      for (const id of HOSTILE.filter((h) => h.length > 2)) expect(key.includes(id), `${key} holds ${id}`).toBe(false);
    }
    const k = monitorKeys(BASE, 'ws-1');
    const queue = new Queue(k.queueName, { connection: raw, prefix: k.bullPrefix });
    const jobs = await queue.getJobs(['completed', 'wait', 'active', 'delayed', 'failed']);
    expect(jobs.map((j) => j.id).every((id) => /^dlv_[0-9a-f]{32}$/.test(String(id)))).toBe(true);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(HOSTILE.length);
    await queue.close();
    expect(ok.sent).toHaveLength(HOSTILE.length); // the second evaluation sent nothing
  });

  it('stores no secret: webhook secret, chat URL and e-mail API key stay out of Redis', async () => {
    const lines: string[] = [];
    const settings: NotificationSettingsInput = {
      channels: [
        { type: 'webhook', url: 'http://127.0.0.1:9/h', secret: HOOK_SECRET },
        { type: 'chat', url: CHAT_URL },
      ],
      allWorkflows: true,
    };
    // The real channels, answered by nothing (port 9): attempts fail and wait for their retry.
    const { notifier } = await start(settings, undefined, lines);
    notifier.executionCompleted(executionLog({ n: 7 }));
    await notifier.flush();
    await until(() => lines.filter((l) => /attempt 1\/6/.test(l)).length === 2, 40_000, 'both first attempts made');
    const dump = await dumpRedis(server.url);
    expect(dump.text).toContain('exec-7');
    expect(dump.text).not.toContain(HOOK_SECRET);
    expect(dump.text).not.toContain('chat-secret-canary');
    expect(lines.join('\n')).not.toContain('chat-secret-canary');
  });

  it('retries on the spec schedule (BullMQ custom backoff) and gives up at once on an answer no retry changes', async () => {
    const answers: Record<string, DeliveryOutcome> = { 'exec-1': { kind: 'status', status: 503 }, 'exec-2': { kind: 'status', status: 400 } };
    const r = recorder((id) => answers[id]!);
    const { notifier, lines } = await start(webhookOnly, [r.target]);
    const before = Date.now();
    notifier.executionCompleted(executionLog({ n: 1 }));
    notifier.executionCompleted(executionLog({ n: 2 }));
    await notifier.flush();
    const k = monitorKeys(BASE, 'ws-1');
    const queue = new Queue(k.queueName, { connection: raw, prefix: k.bullPrefix });
    await until(() => lines.some((l) => /exec-1 attempt 1\/6: HTTP 503, retry in/.test(l)) && lines.some((l) => /exec-2 attempt 1\/6: HTTP 400, giving up \(not retryable\)/.test(l)), 10_000, 'both answered');
    // BullMQ moves the failed attempt to delayed right after the processor throws.
    let delayed = await queue.getJobs(['delayed']);
    for (const deadline = Date.now() + 5_000; delayed.length === 0 && Date.now() < deadline; ) delayed = await queue.getJobs(['delayed']);
    const failed = await queue.getJobs(['failed']);
    expect(failed.map((j) => j.data.executionId)).toEqual(['exec-2']);
    expect(failed[0]?.attemptsMade).toBe(1);
    expect(delayed.map((j) => j.data.executionId)).toEqual(['exec-1']);
    // Due 5 s (plus up to 10 % jitter) after the failed attempt: the spec's first delay.
    const logged = Number(/retry in ([\d.]+) s/.exec(lines.find((l) => /exec-1 attempt 1/.test(l))!)![1]) * 1000;
    const dueIn = delayed[0]!;
    const dueAt = dueIn.timestamp + (dueIn.delay ?? 0);
    expect(logged).toBeGreaterThanOrEqual(5_000);
    expect(logged).toBeLessThanOrEqual(5_500);
    expect(dueAt - before).toBeGreaterThanOrEqual(5_000);
    expect(dueAt - before).toBeLessThanOrEqual(5_500 + 1_000);
    expect(dueIn.opts.attempts).toBe(6);
    expect(r.sent).toHaveLength(2);
    await queue.close();
  });
});
