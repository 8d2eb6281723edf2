/**
 * Promise (issue 34): the custom call (`*_api_call`) repeats GET only. After a 5xx, a time-out
 * or a network fault, PUT, PATCH, DELETE (and POST) are sent once: the service may have done
 * the work, and the tool's description says so. GET is sent again after the same faults.
 */
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../src/index.js';
import { mockService } from '../../helpers/mock-service.js';

const BASE = 'https://api.tinybird.co';
const PATH = '/v0/datasources/events';

type Fault = 'status 500' | 'status 502' | 'status 503' | 'time-out' | 'network fault';
const FAULTS: Fault[] = ['status 500', 'status 502', 'status 503', 'time-out', 'network fault'];
const EXPECTED_CODE: Record<Fault, string> = {
  'status 500': 'upstream_error',
  'status 502': 'upstream_error',
  'status 503': 'upstream_error',
  'time-out': 'timeout',
  'network fault': 'network',
};

/** A Tinybird whose first answer to `method PATH` is `fault` and every later one a 200. */
function faulty(method: string, fault: Fault) {
  const svc = mockService(BASE);
  const match = { method, path: (p: string) => p.split('?')[0] === PATH };
  if (fault === 'network fault') {
    svc.failConnection(method, PATH);
  } else if (fault === 'time-out') {
    svc.pool.intercept(match).reply(200, '{}', { headers: { 'content-type': 'application/json' } }).delay(1_500);
  } else {
    svc.on(method, PATH, { status: Number(fault.slice(7)), body: { error: 'down' } });
  }
  svc.on(method, PATH, { status: 200, body: { ok: true } }, { status: 200, body: { ok: true } });
  /** Requests that went out, as the harness logs them (a faulted one too). */
  const sent: { method: string; url: string; attempt: number }[] = [];
  const run = () =>
    executeTool('tinybird_api_call' as string, { base_url: BASE, token: 'p.custom', method, path: PATH, ...(method === 'GET' ? {} : { body: { a: 1 } }) }, {
      dispatcher: svc.agent,
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
      timeoutMs: 250,
      logger: (event) => void (event.type === 'request' && sent.push({ method: event.method, url: event.url, attempt: event.attempt })),
    });
  return { svc, sent, run };
}

describe('promise: the custom call repeats GET only', () => {
  for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
    it.each(FAULTS)(`${method} after a %s is sent once and fails`, async (fault) => {
      const { svc, sent, run } = faulty(method, fault);
      const result = await run();
      expect(sent).toEqual([{ method, url: `${BASE}${PATH}`, attempt: 1 }]);
      expect(svc.requests.length).toBeLessThanOrEqual(1);
      expect(result).toMatchObject({ success: false, error: { code: EXPECTED_CODE[fault] }, meta: { attempts: 1 } });
    });
  }

  it.each(FAULTS)('GET after a %s is sent again and succeeds', async (fault) => {
    const { svc, sent, run } = faulty('GET', fault);
    const result = await run();
    expect(sent.map((s) => [s.method, s.attempt])).toEqual([
      ['GET', 1],
      ['GET', 2],
    ]);
    expect(svc.requests.at(-1)).toMatchObject({ method: 'GET', path: PATH });
    expect(result).toMatchObject({ success: true, output: { status: 200, body: { ok: true } }, meta: { attempts: 2 } });
  });

  it('says so in the description a model reads', async () => {
    const { getTool } = await import('../../../src/index.js');
    expect(getTool('tinybird_api_call')?.description).toContain('GET is retried after a 5xx or a network fault; other methods are sent once.');
  });
});
