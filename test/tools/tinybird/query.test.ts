import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../src/index.js';
import { mockService } from '../../helpers/mock-service.js';

const BASE = 'https://api.tinybird.co';
const TOKEN = 'p.secret-token-value';

describe('tinybird_query', () => {
  it('POSTs the SQL as a form to /v0/sql and maps a FORMAT JSON body', async () => {
    const svc = mockService(BASE);
    svc.on('POST', '/v0/sql', {
      status: 200,
      body: {
        meta: [{ name: 'n', type: 'UInt64' }],
        data: [{ n: 3 }],
        rows: 1,
        statistics: { elapsed: 0.001, rows_read: 3, bytes_read: 24 },
      },
      headers: { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '19', 'x-ratelimit-reset': '1' },
    });
    const result = await executeTool(
      'tinybird_query',
      { base_url: `${BASE}/`, token: TOKEN, query: 'SELECT count() AS n FROM _ FORMAT JSON', pipeline: 'top' },
      { dispatcher: svc.agent },
    );
    expect(svc.requests).toHaveLength(1);
    const [req] = svc.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v0/sql', query: {} });
    expect(req!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(String(req!.body)))).toEqual({
      q: 'SELECT count() AS n FROM _ FORMAT JSON',
      pipeline: 'top',
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.output).toEqual({
      data: [{ n: 3 }],
      meta: [{ name: 'n', type: 'UInt64' }],
      rows: 1,
      statistics: { elapsed: 0.001, rows_read: 3, bytes_read: 24 },
    });
    expect(result.meta).toMatchObject({ status: 200, attempts: 1, rateLimit: { limit: 20, remaining: 19 } });
    expect(result.meta.rateLimit?.resetAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
