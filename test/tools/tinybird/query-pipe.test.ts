import { describe, expect, it } from 'vitest';
import { TOKEN, tinybird } from './setup.js';

const BODY = {
  meta: [{ name: 'day', type: 'Date' }, { name: 'n', type: 'UInt64' }],
  data: [{ day: '2026-11-21', n: 10 }],
  rows: 1,
  rows_before_limit_at_least: 7,
  statistics: { elapsed: 0.002, rows_read: 70, bytes_read: 560 },
};

describe('tinybird_query_pipe', () => {
  it('GETs /v0/pipes/<pipe>.json with parameters (arrays repeated) and q', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/pipes/top%20events.json', { status: 200, body: BODY });
    const result = await tb.run('tinybird_query_pipe', {
      pipe: 'top events',
      parameters: { start_date: '2026-11-01', limit: 10, country: ['ES', 'FR'], debug: false },
      q: 'SELECT * FROM _ LIMIT 1',
    });
    const [req] = tb.requests;
    expect(req).toMatchObject({
      method: 'GET',
      path: '/v0/pipes/top%20events.json',
      query: { start_date: '2026-11-01', limit: '10', country: ['ES', 'FR'], debug: 'false', q: 'SELECT * FROM _ LIMIT 1' },
      body: undefined,
    });
    expect(req!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(result).toMatchObject({ success: true, output: BODY });
  });

  it('refuses parameters named q or token', async () => {
    const tb = tinybird();
    for (const name of ['q', 'token']) {
      const result = await tb.run('tinybird_query_pipe', { pipe: 'p', parameters: { [name]: 'x' } });
      expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'parameters' }] } });
    }
    expect(tb.requests).toHaveLength(0);
  });

  it('returns not_found for a pipe without an endpoint', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/pipes/nope.json', { status: 404, body: { error: "The pipe 'nope' does not exist" } });
    const result = await tb.run('tinybird_query_pipe', { pipe: 'nope' });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', status: 404, message: "The pipe 'nope' does not exist" } });
  });

  it('answers invalid_response when the body is not the FORMAT JSON shape', async () => {
    const tb = tinybird();
    tb.on('GET', '/v0/pipes/p.json', { status: 200, body: { data: 'nope' } });
    const result = await tb.run('tinybird_query_pipe', { pipe: 'p' });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response' } });
  });
});
