import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/harness/run/execute.js';
import { retryDelayMs, retrySettings } from '../../src/harness/send/retry.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';
import { keyedWriteTool, ORIGIN, readTool, validParams } from './fixtures.js';

/**
 * The README: "It waits for `Retry-After` (seconds or HTTP date), else the rate-limit reset
 * header, else exponential backoff" — for every retried answer, not only a 429.
 */
describe("a 5xx's Retry-After is waited for, not replaced by backoff", () => {
  const settings = retrySettings({ baseDelayMs: 100, maxDelayMs: 1000 });

  it.each([503, 500, 502, 408])('retryDelayMs takes the server delay of a %i', (status) => {
    const after = { kind: 'status' as const, status, headers: { 'retry-after': '7' } };
    expect(retryDelayMs(1, after, settings, () => 0)).toBe(7000);
    const reset = { kind: 'status' as const, status, headers: { 'x-ratelimit-reset': '3' } };
    expect(retryDelayMs(4, reset, settings, () => 1)).toBe(3000);
  });

  it('waits the Retry-After of a 503 before the retry (the retry event says so; the abort ends the wait)', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 503, body: 'down for maintenance', headers: { 'retry-after': '2' } }, { status: 200, body: { ok: true } });
    const events: HarnessEvent[] = [];
    const stop = new AbortController();
    const result = await runTool(readTool, validParams, {
      dispatcher: svc.agent,
      signal: stop.signal,
      retry: { baseDelayMs: 1, maxDelayMs: 4 },
      logger: (event) => {
        events.push(event);
        if (event.type === 'retry') stop.abort();
      },
    });
    expect(events.find((event) => event.type === 'retry')).toEqual({ type: 'retry', toolId: 'example_read', attempt: 1, delayMs: 2000, reason: 'upstream_error' });
    expect(result).toMatchObject({ success: false, error: { code: 'aborted' }, meta: { attempts: 1 } });
  });

  it('hands back at once a 503 whose Retry-After is longer than the caller allows, on a safe call and a keyed write', async () => {
    for (const tool of [readTool, keyedWriteTool]) {
      const svc = mockService(ORIGIN);
      const method = tool === readTool ? 'GET' : 'POST';
      svc.on(method, '/items', { status: 503, body: { error: 'down' }, headers: { 'retry-after': '120' } }, { status: 200, body: { ok: true } });
      const result = await runTool(tool, validParams, { dispatcher: svc.agent, retry: { baseDelayMs: 1, maxDelayMs: 4, maxRetryAfterMs: 60_000 } });
      expect(svc.requests, tool.id).toHaveLength(1);
      expect(result, tool.id).toMatchObject({ success: false, error: { code: 'upstream_error', status: 503, retryable: true }, meta: { attempts: 1 } });
    }
  });
});
