import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { runTool } from '../../src/harness/run/execute.js';
import type { HarnessEvent, HttpRequestSpec, PacerLike } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readParts, readTool, SECRET, validParams, writeTool } from './fixtures.js';

/**
 * sendRequest (src/harness/send/send.ts) as a tool's caller sees it: what goes out on each
 * attempt, what the logger hears, when it retries and waits, and what it hands back.
 */

/** A tool whose request is the fixtures' read (or write) plus `extra`: the spec's own retry knobs. */
function specTool(extra: Partial<HttpRequestSpec>, write = false) {
  return defineTool({
    ...readParts,
    id: 'example_spec',
    annotations: write ? writeTool.annotations : readParts.annotations,
    output: z.looseObject({ ok: z.boolean() }),
    request: (p) => ({ ...readParts.request(p), method: write ? ('POST' as const) : ('GET' as const), ...extra }),
    response: (res) => res.body as { ok: boolean },
  });
}

const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });

afterEach(() => {
  vi.useRealTimers();
});

describe('sendRequest: what the logger hears', () => {
  it('a request, a response with its duration on the clock, a retry with its wait and reason, then the next attempt', async () => {
    fakeClock();
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(503, 'busy', { headers: { 'retry-after': '3' } }).delay(250);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(200, { ok: true }, { headers: { 'content-type': 'application/json' } }).delay(40);
    const events: HarnessEvent[] = [];
    const pending = runTool(readTool, validParams, {
      dispatcher: svc.agent,
      logger: (event) => events.push(event),
    });
    await vi.advanceTimersByTimeAsync(250);
    expect(events).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(2999);
    expect(events).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1 + 40);
    const result = await pending;
    expect(result).toMatchObject({ success: true, meta: { attempts: 2, status: 200 } });
    const url = 'https://api.example.test/items?name=widget';
    expect(events).toEqual([
      { type: 'request', toolId: 'example_read', method: 'GET', url, attempt: 1 },
      { type: 'response', toolId: 'example_read', status: 503, attempt: 1, durationMs: 250 },
      { type: 'retry', toolId: 'example_read', attempt: 1, delayMs: 3000, reason: 'upstream_error' },
      { type: 'request', toolId: 'example_read', method: 'GET', url, attempt: 2 },
      { type: 'response', toolId: 'example_read', status: 200, attempt: 2, durationMs: 40 },
    ]);
  });

  it('logs the URL with its secret masked', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const events: HarnessEvent[] = [];
    const tool = specTool({ query: { key: SECRET } });
    await runTool(tool, validParams, { dispatcher: svc.agent, logger: (event) => events.push(event) });
    expect(events[0]).toMatchObject({ type: 'request', url: 'https://api.example.test/items?key=[redacted]' });
    expect(JSON.stringify(events)).not.toContain(encodeURIComponent(SECRET));
  });
});

describe('sendRequest: when it retries, and what it hands back', () => {
  it('keeps the rate limit an earlier attempt reported when the answer that ends the call reports none', async () => {
    const svc = mockService(ORIGIN);
    svc.on(
      'GET',
      '/items',
      { status: 429, body: 'slow down', headers: { 'retry-after': '0', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' } },
      { status: 200, body: { ok: true } },
    );
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, meta: { attempts: 2, status: 200, rateLimit: { limit: 10, remaining: 0 } } });
  });

  it('waits a Retry-After of exactly the longest wait allowed, and hands back one a second longer', async () => {
    fakeClock();
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 503, body: 'busy', headers: { 'retry-after': '2' } }, { status: 200, body: { ok: true } });
    let settled = false;
    const pending = runTool(readTool, validParams, { dispatcher: svc.agent, retry: { maxRetryAfterMs: 2000 } }).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(1999);
    expect(settled).toBe(false);
    expect(svc.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ success: true, meta: { attempts: 2 } });

    const refused = mockService(ORIGIN);
    refused.on('GET', '/items', { status: 503, body: 'busy', headers: { 'retry-after': '3' } }, { status: 200, body: { ok: true } });
    const result = await runTool(readTool, validParams, { dispatcher: refused.agent, retry: { maxRetryAfterMs: 2000 } });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 503, retryable: true }, meta: { attempts: 1 } });
    expect(refused.requests).toHaveLength(1);
  });

  it('a 429 tells the caller how long the service asked to wait; a 503 does not', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 429, body: 'slow down', headers: { 'retry-after': '90' } });
    const limited = await runTool(readTool, validParams, { dispatcher: svc.agent });
    expect(limited).toMatchObject({ success: false, error: { code: 'rate_limited', retryAfterMs: 90_000, retryable: true }, meta: { attempts: 1 } });
    svc.on('GET', '/items', { status: 503, body: 'down', headers: { 'retry-after': '90' } });
    const down = await runTool(readTool, validParams, { dispatcher: svc.agent });
    expect(down.success).toBe(false);
    expect(down.success || 'retryAfterMs' in down.error).toBe(false);
  });

  it('says which wait an abort ended: before an attempt, or while waiting to retry', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 503, body: 'busy', headers: { 'retry-after': '30' } });
    const stop = new AbortController();
    const waiting = await runTool(readTool, validParams, {
      dispatcher: svc.agent,
      signal: stop.signal,
      logger: (event) => event.type === 'retry' && stop.abort(),
    });
    expect(waiting).toMatchObject({
      success: false,
      error: { code: 'aborted', message: 'the call was aborted while waiting to retry', retryable: false },
      meta: { attempts: 1, status: 503 },
    });
    const before = await runTool(readTool, validParams, { dispatcher: svc.agent, signal: AbortSignal.abort() });
    expect(before).toMatchObject({ success: false, error: { code: 'aborted', message: 'the call was aborted', retryable: false }, meta: { attempts: 0 } });
  });

  it('sends the retry query on every attempt after the first, and judges those attempts by their own nothing-done statuses', async () => {
    const svc = mockService(ORIGIN);
    svc.on('POST', '/items', { status: 429, body: 'x', headers: { 'retry-after': '0' } }, { status: 500, body: 'x' }, { status: 200, body: { ok: true } });
    const tool = specTool({ query: { name: 'w' }, retryQuery: { wait: 'true' }, nothingDoneStatuses: [429], retryNothingDoneStatuses: [500] }, true);
    const result = await runTool(tool, validParams, { dispatcher: svc.agent, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    expect(result).toMatchObject({ success: true, meta: { attempts: 3 } });
    expect(svc.requests.map((r) => r.query)).toEqual([{ name: 'w' }, { name: 'w', wait: 'true' }, { name: 'w', wait: 'true' }]);
  });

  it('without retry statuses of their own, the retried attempts keep the first ones', async () => {
    const svc = mockService(ORIGIN);
    svc.on('POST', '/items', { status: 503, body: 'x' }, { status: 503, body: 'x' }, { status: 200, body: { ok: true } });
    const tool = specTool({ retryQuery: { wait: 'true' }, nothingDoneStatuses: [503] }, true);
    const result = await runTool(tool, validParams, { dispatcher: svc.agent, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    expect(result).toMatchObject({ success: true, meta: { attempts: 3 } });
  });

  it('without a retry query, the retry statuses do not apply: the retried attempts keep the first ones', async () => {
    const svc = mockService(ORIGIN);
    svc.on('POST', '/items', { status: 503, body: 'x' }, { status: 500, body: 'second' }, { status: 200, body: { ok: true } });
    const tool = specTool({ nothingDoneStatuses: [503], retryNothingDoneStatuses: [500] }, true);
    const result = await runTool(tool, validParams, { dispatcher: svc.agent, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 500, retryable: false }, meta: { attempts: 2 } });
    expect(svc.requests.map((r) => r.query)).toEqual([{ name: 'widget' }, { name: 'widget' }]);
  });

  it('an abort just before an attempt (here by the logger, on its request event) ends the call at once, sending nothing', async () => {
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(200, { ok: true }).delay(5_000);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const stop = new AbortController();
    const result = await runTool(readTool, validParams, {
      dispatcher: svc.agent,
      signal: stop.signal,
      timeoutMs: 200,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      logger: (event) => event.type === 'request' && stop.abort(),
    });
    expect(result).toMatchObject({ success: false, error: { code: 'aborted', message: 'the call was aborted', retryable: false }, meta: { attempts: 1 } });
    expect(svc.requests).toHaveLength(0);
  });

  it('does not repeat a write after a 5xx that only the first attempt counted as nothing done', async () => {
    const svc = mockService(ORIGIN);
    svc.on('POST', '/items', { status: 503, body: 'x' }, { status: 503, body: 'second' }, { status: 200, body: { ok: true } });
    const tool = specTool({ retryQuery: { wait: 'true' }, nothingDoneStatuses: [503], retryNothingDoneStatuses: [500] }, true);
    const result = await runTool(tool, validParams, { dispatcher: svc.agent, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 503, retryable: false }, meta: { attempts: 2 } });
  });

  it('a write marked safe to retry, or carrying an idempotency key, is repeated after a 5xx; a plain write is not', async () => {
    for (const [extra, attempts] of [
      [{ safeToRetry: true }, 2],
      [{ idempotencyKey: 'k-1' }, 2],
      [{ safeToRetry: false }, 1],
      [{}, 1],
    ] as const) {
      const svc = mockService(ORIGIN);
      svc.on('POST', '/items', { status: 502, body: 'x' }, { status: 200, body: { ok: true } });
      const result = await runTool(specTool(extra, true), validParams, { dispatcher: svc.agent, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
      expect(result.meta.attempts, JSON.stringify(extra)).toBe(attempts);
      expect(svc.requests, JSON.stringify(extra)).toHaveLength(attempts);
    }
  });

  it('a 2xx the service means as a refusal is that refusal, not retried, even on a safe call', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { success: false, message: 'no' } }, { status: 200, body: { ok: true } });
    const tool = specTool({ refusal: (res) => ((res.body as { success?: boolean }).success === false ? { code: 'invalid_params', message: 'refused: no', retryable: false } : undefined) });
    const result = await runTool(tool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', message: 'refused: no' }, meta: { attempts: 1, status: 200 } });
    expect(svc.requests).toHaveLength(1);
  });

  it('takes every 2xx as success, and a 3xx as a failure', async () => {
    for (const [status, success] of [
      [200, true],
      [299, true],
      [300, false],
      [199, false],
    ] as const) {
      const svc = mockService(ORIGIN);
      svc.on('GET', '/items', { status, body: { ok: true } });
      const result = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: false });
      expect(result.success, String(status)).toBe(success);
    }
  });

  it('stops after maxAttempts, and retries up to it', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 500, body: 'a' }, { status: 500, body: 'b' }, { status: 200, body: { ok: true } });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    expect(result).toMatchObject({ success: true, meta: { attempts: 3 } });
    svc.on('GET', '/items', { status: 500, body: 'a' }, { status: 500, body: 'b' }, { status: 200, body: { ok: true } });
    const short = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    expect(short).toMatchObject({ success: false, error: { message: 'b', status: 500 }, meta: { attempts: 2 } });
  });
});

describe('createCallState: the defaults a call gets', () => {
  it('a time limit of 30 s per attempt when none is given', async () => {
    fakeClock();
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'POST', path: /\/items/ }).reply(200, { ok: true }).delay(60_000);
    let settled = false;
    const pending = runTool(writeTool, validParams, { dispatcher: svc.agent }).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({
      success: false,
      error: { code: 'timeout', message: 'no complete response within 30000 ms', retryable: false },
      meta: { attempts: 1 },
    });
  });
});

describe('sendRequest: turns under a pacer', () => {
  /** A pacer (the public PacerLike) that records every turn taken and how it was handed back. */
  function recordingPacer() {
    const log: unknown[] = [];
    const pacer: PacerLike = {
      acquire(spec, signal, maxWaitMs) {
        log.push({ acquire: spec.key, signal: signal !== undefined, maxWaitMs });
        return Promise.resolve({ done: (response) => log.push({ done: response?.status ?? 'no response' }) });
      },
    };
    return { pacer, log };
  }

  it('takes a turn per attempt and hands it back: with the answer, or with nothing after a fault', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 503, body: 'x' });
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).replyWithError(new Error('reset'));
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const { pacer, log } = recordingPacer();
    const tool = specTool({ pacing: { key: 'acct-1', limit: 5 } });
    const result = await runTool(tool, validParams, { dispatcher: svc.agent, pacer, retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 9_000 } });
    expect(result).toMatchObject({ success: true, meta: { attempts: 3 } });
    expect(log).toEqual([
      { acquire: 'acct-1', signal: false, maxWaitMs: 9_000 },
      { done: 503 },
      { acquire: 'acct-1', signal: false, maxWaitMs: 9_000 },
      { done: 'no response' },
      { acquire: 'acct-1', signal: false, maxWaitMs: 9_000 },
      { done: 200 },
    ]);
  });

  it('takes no turn for a request without pacing, nor with pacer: false', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } }, { status: 200, body: { ok: true } });
    const { pacer, log } = recordingPacer();
    expect(await runTool(specTool({}), validParams, { dispatcher: svc.agent, pacer })).toMatchObject({ success: true });
    expect(await runTool(specTool({ pacing: { key: 'k' } }), validParams, { dispatcher: svc.agent, pacer: false })).toMatchObject({ success: true });
    expect(log).toEqual([]);
    expect(svc.requests).toHaveLength(2);
  });
});
