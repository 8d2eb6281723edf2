import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/harness/run/execute.js';
import { parseRateLimit, parseResetHeader, parseRetryAfter } from '../../src/harness/pace/rate-limit.js';
import { backoffMs, DEFAULT_RETRY, isRetryable, retryDelayMs, retrySettings, serverDelayMs } from '../../src/harness/send/retry.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';
import { keyedWriteTool, ORIGIN, readTool, validParams, writeTool } from './fixtures.js';

const fast = { retry: { baseDelayMs: 1, maxDelayMs: 4 } };
const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('retry rule', () => {
  it('retries a 429 on every call, 5xx and faults only on safe calls', () => {
    const headers = {};
    expect(isRetryable({ kind: 'status', status: 429, headers }, { safe: false })).toBe(true);
    expect(isRetryable({ kind: 'status', status: 500, headers }, { safe: false })).toBe(false);
    expect(isRetryable({ kind: 'status', status: 502, headers }, { safe: true })).toBe(true);
    expect(isRetryable({ kind: 'status', status: 408, headers }, { safe: true })).toBe(true);
    expect(isRetryable({ kind: 'status', status: 400, headers }, { safe: true })).toBe(false);
    expect(isRetryable({ kind: 'status', status: 422, headers }, { safe: true })).toBe(false);
    expect(isRetryable({ kind: 'status', status: 503, headers }, { safe: false, nothingDoneStatuses: [503] })).toBe(true);
    expect(isRetryable({ kind: 'network' }, { safe: false })).toBe(false);
    expect(isRetryable({ kind: 'timeout' }, { safe: true })).toBe(true);
  });

  it('waits Retry-After in seconds or as an HTTP date, else the reset header, else backoff', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', NOW)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(serverDelayMs({ 'retry-after': '2', 'x-ratelimit-reset': '9' }, NOW)).toBe(2000);
    expect(serverDelayMs({ 'x-ratelimit-reset': '9' }, NOW)).toBe(9000);
    expect(serverDelayMs({}, NOW)).toBeUndefined();
    const settings = retrySettings({ baseDelayMs: 100, maxDelayMs: 1000 });
    const outcome = { kind: 'status' as const, status: 503, headers: {} };
    expect(retryDelayMs(1, outcome, settings, () => 0)).toBe(50);
    expect(retryDelayMs(3, outcome, settings, () => 1)).toBe(400);
    expect(retryDelayMs(9, { kind: 'network' }, settings, () => 1)).toBe(1000);
  });

  it('keeps backoff jitter within the upper half of each step', () => {
    for (let attempt = 1; attempt <= 8; attempt++) {
      const step = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** (attempt - 1));
      for (let i = 0; i < 20; i++) {
        const delay = backoffMs(attempt, DEFAULT_RETRY);
        expect(delay).toBeGreaterThanOrEqual(step / 2);
        expect(delay).toBeLessThanOrEqual(step);
      }
    }
  });

  it('reads reset headers as relative seconds, epoch seconds, epoch ms or a date', () => {
    expect(parseResetHeader('30', NOW)).toBe(NOW + 30_000);
    expect(parseResetHeader(String(NOW / 1000 + 60), NOW)).toBe(NOW + 60_000);
    expect(parseResetHeader(String(NOW + 5), NOW)).toBe(NOW + 5);
    expect(parseResetHeader('2026-11-22T10:01:00Z', NOW)).toBe(NOW + 60_000);
    expect(parseResetHeader('garbage', NOW)).toBeUndefined();
    expect(parseRateLimit({ 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' }, NOW)).toEqual({
      limit: 10,
      remaining: 0,
      resetAt: '2026-11-22T10:00:01.000Z',
    });
    expect(parseRateLimit({}, NOW)).toBeUndefined();
  });

  it('turns retry: false into one attempt', () => {
    expect(retrySettings(false).maxAttempts).toBe(1);
    expect(retrySettings({ maxAttempts: 7 }).maxAttempts).toBe(7);
  });
});

describe('retries on the wire', () => {
  it('retries a plain-text 429 after Retry-After on a call that is not safe, then succeeds', async () => {
    const svc = mockService(ORIGIN);
    svc.on(
      'POST',
      '/items',
      { status: 429, body: 'Too many requests\n', headers: { 'retry-after': '1' } },
      { status: 201, body: { ok: true } },
    );
    const events: HarnessEvent[] = [];
    const started = Date.now();
    const result = await runTool(writeTool, validParams, { dispatcher: svc.agent, logger: (e) => events.push(e) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result).toMatchObject({ success: true, output: { ok: true }, meta: { attempts: 2, status: 201 } });
    expect(svc.requests).toHaveLength(2);
    expect(svc.requests[1]!.body).toBe(svc.requests[0]!.body);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ delayMs: 1000, reason: 'rate_limited' });
  });

  it('does not repeat a non-idempotent call after a 5xx', async () => {
    const svc = mockService(ORIGIN);
    svc.on('POST', '/items', { status: 500, body: { error: 'boom' } }, { status: 201, body: { ok: true } });
    const result = await runTool(writeTool, validParams, { dispatcher: svc.agent, ...fast });
    expect(svc.requests).toHaveLength(1);
    expect(result).toMatchObject({
      success: false,
      error: { code: 'upstream_error', status: 500, message: 'boom', retryable: false },
      meta: { attempts: 1, status: 500 },
    });
  });

  it('repeats a read-only call after a 5xx and a network fault', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 502, body: 'bad gateway' });
    svc.failConnection('GET', '/items');
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, ...fast });
    expect(result).toMatchObject({ success: true, meta: { attempts: 3, status: 200 } });
  });

  it('repeats a write that carries an idempotency key, with the same key each time', async () => {
    const svc = mockService(ORIGIN);
    svc.on('POST', '/items', { status: 503, body: 'down' }, { status: 201, body: { ok: true } });
    const result = await runTool(keyedWriteTool, validParams, { dispatcher: svc.agent, ...fast });
    expect(result.success).toBe(true);
    const keys = svc.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('does not repeat a non-idempotent call after a network fault', async () => {
    const svc = mockService(ORIGIN);
    svc.failConnection('POST', '/items');
    const result = await runTool(writeTool, validParams, { dispatcher: svc.agent, ...fast });
    expect(result).toMatchObject({ success: false, error: { code: 'network', retryable: false }, meta: { attempts: 1 } });
    expect(result.success || result.error.message).toMatch(/ECONNRESET/);
  });

  it('gives up after maxAttempts with the real last error', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', ...Array.from({ length: 3 }, () => ({ status: 503, body: { error: 'still down' } })));
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: { maxAttempts: 3, baseDelayMs: 1 } });
    expect(svc.requests).toHaveLength(3);
    expect(result).toMatchObject({
      success: false,
      error: { code: 'upstream_error', status: 503, message: 'still down', retryable: true },
      meta: { attempts: 3 },
    });
  });

  it('sends once with retry: false', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 429, body: 'slow down', headers: { 'retry-after': '0' } });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: false });
    expect(result).toMatchObject({ success: false, error: { code: 'rate_limited', retryable: true, retryAfterMs: 0 } });
    expect(svc.requests).toHaveLength(1);
  });

  it('hands back a 429 whose Retry-After is longer than the caller allows', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 429, body: { error: 'quota' }, headers: { 'retry-after': '3600' } });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: { maxRetryAfterMs: 10_000 } });
    expect(svc.requests).toHaveLength(1);
    expect(result).toMatchObject({ success: false, error: { code: 'rate_limited', retryAfterMs: 3_600_000, message: 'quota' } });
  });

  it('reads a Retry-After past any number (1e400) as a day, and hands the 429 back at once', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 429, body: { error: 'quota' }, headers: { 'retry-after': '1e400' } });
    const started = performance.now();
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, ...fast });
    expect(performance.now() - started).toBeLessThan(500);
    expect(svc.requests).toHaveLength(1);
    expect(result).toMatchObject({ success: false, error: { code: 'rate_limited', retryable: true, retryAfterMs: 86_400_000 }, meta: { attempts: 1 } });
  });

  it('ignores a negative Retry-After and backs off, and a reset of 1e20 does not break a success', async () => {
    const svc = mockService(ORIGIN);
    svc.on(
      'GET',
      '/items',
      { status: 429, body: 'slow down', headers: { 'retry-after': '-1' } },
      { status: 200, body: { ok: true }, headers: { 'x-ratelimit-reset': '1e20' } },
    );
    const events: HarnessEvent[] = [];
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, retry: { baseDelayMs: 20 }, logger: (e) => events.push(e) });
    expect(result).toMatchObject({ success: true, meta: { attempts: 2, rateLimit: { resetAt: expect.any(String) } } });
    expect(Date.parse(result.meta.rateLimit!.resetAt!) - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ delayMs: expect.any(Number) });
    expect((events.find((e) => e.type === 'retry') as { delayMs: number }).delayMs).toBeGreaterThanOrEqual(10);
  });
});
