import { describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { executeTool } from '../../../src/index.js';
import { API, ORIGIN } from './setup.js';

/**
 * A Loops that enforces its documented limit: 10 requests per second per key (sliding),
 * 429 without Retry-After beyond it, x-ratelimit-* on every answer, and 409 for a reused
 * Idempotency-Key. Records every request and every accepted key.
 */
function limitedLoops(limit = 10) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const accepted: number[] = [];
  const seenKeys = new Set<string>();
  const log: { status: number; key: string; at: number }[] = [];
  agent
    .get(ORIGIN)
    .intercept({ method: 'POST', path: `${API}/events/send` })
    .reply((opts) => {
      const at = performance.now();
      const key = String((opts.headers as Record<string, string>)['idempotency-key']);
      while (accepted.length && accepted[0]! <= at - 1000) accepted.shift();
      const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': String(limit) };
      if (accepted.length >= limit) {
        log.push({ status: 429, key, at });
        return { statusCode: 429, data: JSON.stringify({ success: false, message: 'Rate limit exceeded' }), responseOptions: { headers: { ...headers, 'x-ratelimit-remaining': '0' } } };
      }
      accepted.push(at);
      const status = seenKeys.has(key) ? 409 : 200;
      seenKeys.add(key);
      log.push({ status, key, at });
      const body = status === 409 ? { success: false, message: 'Idempotency key already used with a different request body.' } : { success: true };
      return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { ...headers, 'x-ratelimit-remaining': String(limit - accepted.length) } } };
    })
    .persist();
  return { agent, log };
}

const sendEvent = (apiKey: string, i: number, options: Parameters<typeof executeTool>[2]) =>
  executeTool('loops_send_event', { apiKey, eventName: 'signup', email: `user${i}@company.com` }, options);

describe('50 concurrent sends against 10 requests per second', () => {
  it('all succeed, each e-mail goes out once, and the burst is paced instead of bounced', async () => {
    const { agent, log } = limitedLoops();
    const started = performance.now();
    // The shared, default pacer, as a program would use it; the key is this test's own.
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => sendEvent('lk_burst_test_key_0001', i, { dispatcher: agent, retry: { baseDelayMs: 5, maxDelayMs: 50 } })),
    );
    const elapsed = performance.now() - started;

    expect(results.filter((r) => r.success)).toHaveLength(50);
    const delivered = log.filter((entry) => entry.status === 200).map((entry) => entry.key);
    expect(delivered).toHaveLength(50);
    expect(new Set(delivered).size).toBe(50);
    expect(log.filter((entry) => entry.status === 409)).toHaveLength(0);
    // Paced at the documented 10/s: five windows, not a storm of 429s.
    expect(log.filter((entry) => entry.status === 429)).toHaveLength(0);
    expect(elapsed).toBeGreaterThan(3_900);
    expect(elapsed).toBeLessThan(9_000);
  }, 15_000);

  it('without pacing, the same burst is bounced with 429s and retries run out', async () => {
    const { agent, log } = limitedLoops();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => sendEvent('lk_burst_test_key_0002', i, { dispatcher: agent, pacer: false, retry: { baseDelayMs: 1, maxDelayMs: 4 } })),
    );
    const failed = results.filter((r) => !r.success);
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) expect(r).toMatchObject({ error: { code: 'rate_limited', status: 429 }, meta: { attempts: 4 } });
    expect(log.filter((entry) => entry.status === 429).length).toBeGreaterThan(100);
    // Even so, no e-mail went out twice.
    const delivered = log.filter((entry) => entry.status === 200).map((entry) => entry.key);
    expect(new Set(delivered).size).toBe(delivered.length);
  });
});
