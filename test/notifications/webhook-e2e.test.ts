import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { fakeClock } from './fake-clock.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const SECRET = 'whsec-e2e-secret';

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** A receiver on 127.0.0.1 that answers with the given statuses in turn. */
async function receiver(statuses: number[], now: () => number) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks), at: now() });
      res.statusCode = statuses.shift() ?? 200;
      res.end(res.statusCode === 200 ? 'ok' : 'unavailable');
    });
  });
  const { port } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}/hooks/flowblocks`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

describe('webhook delivery end to end', () => {
  it('a receiver that fails twice with 503 then accepts gets one delivery id, three attempts, a valid signature on each', async () => {
    const clock = fakeClock(Date.UTC(2026, 0, 5, 12));
    const server = await receiver([503, 503, 200], clock.now);
    const agent = new Agent();
    cleanup.push(server.close, () => agent.close());
    const lines: string[] = [];
    const notifier = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: server.url, secret: SECRET }], allWorkflows: true }),
      clock,
      dispatcher: agent,
      random: () => 0,
      log: (line) => lines.push(line),
    });
    const [delivery] = notifier.executionCompleted({
      id: 'log-1',
      workflowId: 'wf-1',
      executionId: 'exec-1',
      level: 'error',
      trigger: 'api',
      startedAt: '2026-01-05T11:59:58.000Z',
      endedAt: '2026-01-05T12:00:00.000Z',
      totalDurationMs: 2000,
      cost: { total: 0.02 },
      files: null,
    });
    for (let due = notifier.queue.nextDueAt(); due !== undefined; due = notifier.queue.nextDueAt()) {
      clock.set(due);
      await notifier.deliverDue();
    }

    const { received } = server;
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers['svc-delivery-id']))).toEqual(new Set([delivery?.id]));
    expect(received.map((r) => r.headers['idempotency-key'])).toEqual(Array(3).fill(delivery?.id));
    // Signed afresh on each attempt, 5 s and then 15 s apart.
    const stamps = received.map((r) => Number(r.headers['svc-timestamp']));
    expect([stamps[1]! - stamps[0]!, stamps[2]! - stamps[1]!]).toEqual([5_000, 15_000]);
    for (const r of received) {
      expect(r.headers['svc-event']).toBe('workflow.execution.completed');
      expect(r.headers['content-type']).toBe('application/json');
      const event = verifyWebhook({ body: r.body, headers: r.headers, secret: SECRET, now: r.at });
      expect(event.data.executionId).toBe('exec-1');
    }
    expect(received[0]?.body.equals(received[2]!.body)).toBe(true);
    expect(() => verifyWebhook({ body: received[0]!.body, headers: received[0]!.headers, secret: 'wrong', now: received[0]!.at })).toThrow();
    expect(lines).toEqual([
      expect.stringMatching(/attempt 1\/6: HTTP 503, retry in 5 s$/),
      expect.stringMatching(/attempt 2\/6: HTTP 503, retry in 15 s$/),
      expect.stringMatching(/attempt 3\/6: delivered \(HTTP 200\)$/),
    ]);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('times out an attempt that gets no answer, and retries it', async () => {
    const clock = fakeClock();
    const hanging = createServer(() => {});
    await listenOnLoopback(hanging);
    const agent = new Agent();
    cleanup.push(() => new Promise<void>((r) => hanging.close(() => r())), () => agent.destroy());
    const { port } = hanging.address() as AddressInfo;
    const lines: string[] = [];
    const notifier = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: `http://127.0.0.1:${port}/` }], allWorkflows: true }),
      clock,
      dispatcher: agent,
      timeoutMs: 50,
      random: () => 0,
      log: (line) => lines.push(line),
    });
    notifier.executionCompleted({ id: 'l', workflowId: 'wf', executionId: 'e', level: 'info', trigger: 'api', startedAt: '2026-01-05T12:00:00Z', endedAt: '2026-01-05T12:00:01Z', totalDurationMs: 1000 });
    await notifier.deliverDue();
    expect(lines[0]).toMatch(/attempt 1\/6: no answer within 0.05 s, retry in 5 s$/);
    hanging.closeAllConnections();
  });
});
