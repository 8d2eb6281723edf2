/** `POST /v0/tokens/` as the official SDK sends it: JSON `{name, scope}` for a static token, `{name, scopes}` and `expiration_time` for a JWT. */
import { describe, expect, it } from 'vitest';
import { TOKEN, tinybird } from './setup.js';

describe('tinybird_create_token', () => {
  it('creates a static token with the scope names the Tokens API uses', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/tokens/', { status: 200, body: { token: 'p.new-token', name: 'read_events', scopes: [{ type: 'DATASOURCES:READ', resource: 'events', filter: '' }] } });
    const result = await tb.run('tinybird_create_token', { name: 'read_events', scopes: ['DATASOURCES:READ:events', 'PIPES:READ:top_events'] });
    const [req] = tb.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v0/tokens/', query: {} });
    expect(req!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' });
    expect(JSON.parse(String(req!.body))).toEqual({ name: 'read_events', scope: ['DATASOURCES:READ:events', 'PIPES:READ:top_events'] });
    expect(result).toMatchObject({ success: true, output: { token: 'p.new-token', name: 'read_events' } });
    expect(JSON.stringify(result.meta)).not.toContain(TOKEN);
  });

  it('creates a JWT for a pipe with fixed params, its expiry in the query', async () => {
    const tb = tinybird();
    tb.on('POST', '/v0/tokens/', { status: 200, body: { token: 'eyJhbGciOiJIUzI1NiJ9.e30.sig' } });
    const result = await tb.run('tinybird_create_token', {
      name: 'tenant_42',
      kind: 'jwt',
      jwt_scopes: [{ type: 'PIPES:READ', resource: 'top_events', fixed_params: { tenant_id: 42 } }],
      expires_at: 1800000000,
      rps: 10,
    });
    const [req] = tb.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v0/tokens/', query: { expiration_time: '1800000000' } });
    expect(JSON.parse(String(req!.body))).toEqual({ name: 'tenant_42', scopes: [{ type: 'PIPES:READ', resource: 'top_events', fixed_params: { tenant_id: 42 } }], limits: { rps: 10 } });
    expect(result).toMatchObject({ success: true, output: { token: 'eyJhbGciOiJIUzI1NiJ9.e30.sig' } });
  });

  it('refuses scope names the API does not use, and mixed kinds, before sending', async () => {
    const tb = tinybird();
    expect(await tb.run('tinybird_create_token', { name: 'x', scopes: ['DATASOURCE:READ:events'] })).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'scopes.0' }] } });
    expect(await tb.run('tinybird_create_token', { name: 'x', kind: 'jwt', jwt_scopes: [{ type: 'PIPES:READ', resource: 'p' }] })).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'expires_at' }] } });
    expect(await tb.run('tinybird_create_token', { name: 'x', scopes: ['TOKENS'], expires_at: 1 })).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'expires_at' }] } });
    expect(tb.requests).toHaveLength(0);
  });
});
