/**
 * One BullMQ delivery job's attempt (src/satellites/notifications/redis/delivery-job.ts), as the Redis
 * store's worker runs it: what the channel is given, what is logged, and what BullMQ is told
 * (done, retry after the spec's delay, or give up). No Redis needed: the job is a plain object.
 */
import * as bullmq from 'bullmq';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, type DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import type { Delivery, Target } from '../../src/satellites/notifications/queue.js';
import { attemptDelivery, jobData, RetryLater, specBackoff, type DeliveryJobData } from '../../src/satellites/notifications/redis/delivery-job.js';

const data: DeliveryJobData = { id: 'dlv_1', target: 'hook', eventId: 'evt_1', workflowId: 'wf_1', executionId: 'exec_1', body: '{"a":1}', reasons: ['r'], createdAt: 5 };
const NOW = 1_700_000_000_000;

function run(answer: () => Promise<DeliveryOutcome>, attemptsMade = 0, random = () => 0.5) {
  const lines: string[] = [];
  const given: { delivery: Delivery; timeoutMs: number }[] = [];
  const givenUp: number[] = [];
  const target: Target = {
    key: 'hook',
    label: 'webhook https://r.example.com',
    send: (delivery, timeoutMs) => {
      given.push({ delivery, timeoutMs });
      return answer();
    },
  };
  const deps = { bullmq, targets: new Map([['hook', target]]), timeoutMs: 1_234, now: () => NOW, random, log: (line: string) => lines.push(line), givenUp: () => givenUp.push(1) };
  const attempt = attemptDelivery({ data, attemptsMade }, deps);
  return { attempt, lines, given, givenUp };
}

describe('jobData', () => {
  it('carries the delivery as queued, without its progress (BullMQ keeps that)', () => {
    const d: Delivery = { ...data, attempts: 3, nextAttemptAt: 9, state: 'failed', lastResult: 'x', finishedAt: 10 };
    expect(jobData(d)).toStrictEqual(data);
  });
});

describe('specBackoff', () => {
  it("takes a RetryLater's own delay, else the spec's schedule by attempts made, 0 past it", () => {
    expect(specBackoff(1, 'spec', new RetryLater('HTTP 503', 5_321))).toBe(5_321);
    const first = specBackoff(1, 'spec', new Error('stalled'));
    expect(first).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0]!);
    expect(first).toBeLessThanOrEqual(RETRY_DELAYS_MS[0]! * 1.1);
    expect(specBackoff(2)).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[1]!);
    expect(specBackoff(MAX_ATTEMPTS)).toBe(0);
  });
});

describe('attemptDelivery', () => {
  it('gives the channel the delivery with the attempts made so far, due now, and the time limit', async () => {
    const { attempt, lines, given } = run(() => Promise.resolve({ kind: 'status', status: 204 }), 2);
    await attempt;
    expect(given).toEqual([{ delivery: { ...data, attempts: 2, nextAttemptAt: NOW, state: 'pending' }, timeoutMs: 1_234 }]);
    expect(lines).toEqual([`delivery dlv_1 webhook https://r.example.com execution exec_1 attempt 3/${MAX_ATTEMPTS}: delivered (HTTP 204)`]);
  });

  it('drops a job whose channel is no longer in the settings, sending nothing', async () => {
    const lines: string[] = [];
    await attemptDelivery({ data: { ...data, target: 'gone' }, attemptsMade: 0 }, { bullmq, targets: new Map(), timeoutMs: 1, now: () => NOW, random: () => 0, log: (l) => lines.push(l) });
    expect(lines).toEqual(['delivery dlv_1 dropped: its channel is no longer in the settings']);
  });

  it('asks for a retry after the schedule delay (jitter drawn once: the log and the backoff agree)', async () => {
    const { attempt, lines } = run(() => Promise.resolve({ kind: 'status', status: 503 }), 0, () => 0.5);
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryLater);
    expect(error).not.toBeInstanceOf(bullmq.UnrecoverableError);
    expect((error as RetryLater).delayMs).toBe(5_250);
    expect((error as RetryLater).message).toBe('HTTP 503');
    expect(lines).toEqual([`delivery dlv_1 webhook https://r.example.com execution exec_1 attempt 1/${MAX_ATTEMPTS}: HTTP 503, retry in 5.3 s`]);
  });

  it('counts a channel that throws as a retryable failure, named by its message or by default', async () => {
    const thrown = run(() => Promise.reject(new Error('socket hang up')));
    expect(await thrown.attempt.catch((e: unknown) => e)).toBeInstanceOf(RetryLater);
    expect(thrown.lines[0]).toMatch(/attempt 1\/\d: socket hang up, retry in /);
    const silent = run(() => Promise.reject(new Error('')));
    await silent.attempt.catch(() => {});
    expect(silent.lines[0]).toMatch(/attempt 1\/\d: the channel failed, retry in /);
  });

  it('gives up at once on an answer no retry changes, and after the last attempt of the schedule', async () => {
    const final = run(() => Promise.resolve({ kind: 'status', status: 400 }));
    const error = await final.attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(bullmq.UnrecoverableError);
    expect((error as Error).message).toBe('HTTP 400');
    expect(final.lines).toEqual([`delivery dlv_1 webhook https://r.example.com execution exec_1 attempt 1/${MAX_ATTEMPTS}: HTTP 400, giving up (not retryable)`]);

    const last = run(() => Promise.resolve({ kind: 'status', status: 503 }), MAX_ATTEMPTS - 1);
    expect(await last.attempt.catch((e: unknown) => e)).toBeInstanceOf(bullmq.UnrecoverableError);
    expect(last.lines).toEqual([`delivery dlv_1 webhook https://r.example.com execution exec_1 attempt ${MAX_ATTEMPTS}/${MAX_ATTEMPTS}: HTTP 503, giving up (schedule used up)`]);
    // Counted for `monitor --once`'s exit code, once each; a retry is not.
    expect([final.givenUp.length, last.givenUp.length]).toEqual([1, 1]);
    const retried = run(() => Promise.resolve({ kind: 'status', status: 503 }));
    await retried.attempt.catch(() => undefined);
    expect(retried.givenUp).toEqual([]);
  });
});
