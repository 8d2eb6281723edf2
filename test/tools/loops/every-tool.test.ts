import { describe, expect, it } from 'vitest';
import { listBlocks } from '../../../src/index.js';
import { CASES, type ToolCase } from './cases.js';
import { API, API_KEY, expectLoopsHeaders, jsonOf, loops } from './setup.js';

const RATE = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9' };
const LB_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center></body>\r\n</html>\r\n';

/** The one request a case makes, checked in every respect. */
function expectRequest(c: ToolCase, req: Parameters<typeof expectLoopsHeaders>[0]) {
  expect(req).toMatchObject({ method: c.method, path: `${API}${c.path}`, query: c.query });
  expectLoopsHeaders(req, { body: c.body !== undefined });
  expect(jsonOf(req)).toEqual(c.body);
  if (c.idempotent) expect(req?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  else expect(req?.headers['idempotency-key']).toBeUndefined();
}

describe('every Loops tool', () => {
  it('has a case here, and the block offers every tool', () => {
    const block = listBlocks().find((b) => b.type === 'loops')!;
    // loops_api_call sends what its caller names: test/tools/custom/api-call.test.ts.
    expect(block.tools.map((t) => t.id).filter((id) => id !== 'loops_api_call').sort()).toEqual(CASES.map((c) => c.id).sort());
  });

  describe.each(CASES)('$id', (c) => {
    it('sends the documented request and normalizes the answer', async () => {
      const svc = loops();
      svc.on(c.method, `${API}${c.path}`, { status: 200, body: c.reply, headers: RATE });
      const result = await svc.run(c.id, c.params);
      expect(svc.requests).toHaveLength(1);
      expectRequest(c, svc.requests[0]);
      expect(result).toEqual({
        success: true,
        output: c.output,
        meta: { status: 200, attempts: 1, durationMs: expect.any(Number), rateLimit: { limit: 10, remaining: 9 } },
      });
    });

    it('reports a 400 with the service message, once', async () => {
      const svc = loops();
      svc.on(c.method, `${API}${c.path}`, { status: 400, body: { success: false, message: 'Some body key or value is longer than allowable' } });
      const result = await svc.run(c.id, c.params);
      expect(svc.requests).toHaveLength(1);
      expectRequest(c, svc.requests[0]);
      expect(result).toMatchObject({
        success: false,
        error: { code: 'bad_request', status: 400, message: 'Some body key or value is longer than allowable', retryable: false },
        meta: { attempts: 1, status: 400 },
      });
    });

    it('reports a 401 as unauthorized without the key anywhere', async () => {
      const svc = loops();
      svc.on(c.method, `${API}${c.path}`, { status: 401, body: { success: false, message: 'Invalid API key', error: 'Invalid API key' } });
      // A tool with a fallback asks it too: a bad key answers 401 there as well.
      if (c.fallbackPath) svc.on(c.method, `${API}${c.fallbackPath}`, { status: 401, body: { success: false, message: 'Invalid API key', error: 'Invalid API key' } });
      const result = await svc.run(c.id, c.params);
      expectRequest(c, svc.requests[0]);
      expect(result).toMatchObject({ success: false, error: { code: 'unauthorized', status: 401, message: 'Invalid API key', retryable: false } });
      expect(JSON.stringify(result)).not.toContain(API_KEY);
    });

    it('names a load balancer\'s error page by its status, without quoting the page', async () => {
      const svc = loops();
      svc.on(c.method, `${API}${c.path}`, { status: 502, body: LB_502, headers: { 'content-type': 'text/html' } });
      const result = await svc.run(c.id, c.params, { retry: false });
      expectRequest(c, svc.requests[0]);
      expect(result.success).toBe(false);
      if (result.success) return;
      expect(result.error).toMatchObject({ code: 'upstream_error', status: 502 });
      expect(result.error.message).toBe("HTTP 502: the answer is a web page (text/html), not the service's API: a proxy or gateway answered, or the base URL is wrong");
    });
  });

  // The pacer holds the key for Loops' 1 s window after a 429; these run side by side to keep the suite quick.
  it.concurrent.each(CASES)('$id waits out a 429 (no Retry-After) and repeats the same request', async (c) => {
    const svc = loops();
    svc.on(
      c.method,
      `${API}${c.path}`,
      { status: 429, body: { success: false, message: 'Rate limit exceeded' }, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' } },
      { status: 200, body: c.reply, headers: RATE },
    );
    const result = await svc.run(c.id, c.params);
    expect(svc.requests).toHaveLength(2);
    expectRequest(c, svc.requests[1]);
    // The very same call: body and idempotency key unchanged, so a send cannot go out twice.
    expect(svc.requests[1]!.body).toEqual(svc.requests[0]!.body);
    expect(svc.requests[1]!.headers['idempotency-key']).toBe(svc.requests[0]!.headers['idempotency-key']);
    expect(result).toMatchObject({ success: true, output: c.output, meta: { attempts: 2, status: 200 } });
    // Loops' window is one second: the retry waits for it instead of hammering.
    expect(result.meta.durationMs).toBeGreaterThanOrEqual(995);
  });

  it.each(CASES.filter((c) => !Array.isArray(c.reply)))('$id treats a 200 that says success: false as a refusal', async (c) => {
    const svc = loops();
    svc.on(c.method, `${API}${c.path}`, { status: 200, body: { success: false, message: 'Contact not found.' } });
    const result = await svc.run(c.id, c.params);
    expectRequest(c, svc.requests[0]);
    expect(result).toMatchObject({ success: false, error: { code: 'bad_request', status: 200, message: 'Contact not found.' } });
  });

  it('answers invalid_response when a list call does not get an array', async () => {
    const svc = loops();
    svc.on('GET', `${API}/lists`, { status: 200, body: { data: [] } });
    const result = await svc.run('loops_list_mailing_lists', {});
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: `${API}/lists` });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', message: expect.stringContaining('expected an array of mailing lists') } });
  });
});
