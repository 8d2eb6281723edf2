/**
 * The custom API call of each service: the request goes to the service's base URL with the
 * configured credential and the caller's method, path, query and body; a path that would
 * leave the base URL's origin or path is refused before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../src/index.js';
import type { ExecuteOptions } from '../../../src/harness/types.js';
import { unsafePathReason, urlUnderBase } from '../../../src/harness/define/custom-call.js';
import { mockService } from '../../helpers/mock-service.js';

const fast: ExecuteOptions = { retry: { baseDelayMs: 1, maxDelayMs: 4 } };

describe('tinybird_api_call', () => {
  const BASE = 'https://api.tinybird.co';
  const run = (svc: ReturnType<typeof mockService>, params: Record<string, unknown>) =>
    // Loose params on purpose (each test adds its own): the id is widened so the call is not typed.
    executeTool('tinybird_api_call' as string, { base_url: BASE, token: 'p.custom-token', ...params }, { dispatcher: svc.agent, ...fast });

  it('GETs the path under base_url with the Bearer token and the query, and returns status and body', async () => {
    const svc = mockService(BASE);
    svc.on('GET', '/v0/tokens', { status: 200, body: { tokens: [{ name: 'admin', scopes: [{ type: 'ADMIN' }] }] } });
    const result = await run(svc, { path: '/v0/tokens', query: { limit: 10, tag: ['a', 'b'] } });
    expect(svc.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/v0/tokens', query: { limit: '10', tag: ['a', 'b'] }, body: undefined })]);
    expect(svc.requests[0]!.headers.authorization).toBe('Bearer p.custom-token');
    expect(result).toMatchObject({ success: true, output: { status: 200, body: { tokens: [{ name: 'admin' }] } } });
    expect(JSON.stringify(result)).not.toContain('p.custom-token');
  });

  it('retries a GET after a 5xx, sends a POST once', async () => {
    const svc = mockService(BASE);
    svc.on('GET', '/v0/datasources/events', { status: 503, body: { error: 'down' } }, { status: 200, body: { name: 'events' } });
    expect(await run(svc, { path: '/v0/datasources/events' })).toMatchObject({ success: true, meta: { attempts: 2 } });
    svc.on('POST', '/v0/datasources/events/alter', { status: 503, body: { error: 'down' } }, { status: 200, body: {} });
    const post = await run(svc, { method: 'POST', path: '/v0/datasources/events/alter', body: { description: 'x' } });
    expect(post).toMatchObject({ success: false, error: { code: 'upstream_error' } });
    expect(svc.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(svc.requests[2]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(svc.requests[2]!.body))).toEqual({ description: 'x' });
  });

  it('normalizes a 4xx like every other tool', async () => {
    const svc = mockService(BASE);
    svc.on('GET', '/v0/nothing', { status: 404, body: { error: 'Not found' } });
    expect(await run(svc, { path: '/v0/nothing' })).toMatchObject({ success: false, error: { code: 'not_found', status: 404, message: 'Not found' } });
  });

  it('refuses a 206 Partial Content: a slice of an answer passes no whole-secret mask', async () => {
    const svc = mockService(BASE);
    svc.on('GET', '/v0/x', { status: 206, body: 'p.custo', headers: { 'content-type': 'text/plain', 'content-range': 'bytes 0-6/40' } });
    const result = await run(svc, { path: '/v0/x' });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_response', status: 206, retryable: false, message: 'the service answered 206 Partial Content; a part of an answer is refused, since a secret read in slices would pass the mask' },
    });
    expect(JSON.stringify(result)).not.toContain('p.custo');
  });

  it('refuses a binary answer holding the token, and hands back a clean one as base64', async () => {
    const svc = mockService(BASE);
    svc.on('GET', '/v0/secret.bin', { status: 200, body: '\u0000token=p.custom-token\u0001', headers: { 'content-type': 'application/octet-stream' } });
    svc.on('GET', '/v0/clean.bin', { status: 200, body: '\u0000\u0001\u0002', headers: { 'content-type': 'application/octet-stream' } });
    expect(await run(svc, { path: '/v0/secret.bin' })).toMatchObject({ success: false, error: { code: 'invalid_response', message: 'the service answered binary data that holds a configured secret; a binary answer cannot be masked, so it is withheld' } });
    expect(await run(svc, { path: '/v0/clean.bin' })).toMatchObject({ success: true, output: { status: 200, body: Buffer.from([0, 1, 2]).toString('base64') } });
  });

  it('refuses headers that would replace the credential', async () => {
    const svc = mockService(BASE);
    const result = await run(svc, { path: '/v0/x', headers: { Authorization: 'Bearer other' } });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'headers.Authorization' }] } });
    expect(svc.requests).toHaveLength(0);
  });
});

describe('loops_api_call', () => {
  it('goes under https://app.loops.so/api/v1 with the Bearer key, a POST with a JSON body, and reads success: false as a refusal', async () => {
    const svc = mockService('https://app.loops.so');
    svc.on('POST', '/api/v1/contacts/update', { status: 200, body: { success: false, message: 'Contact not found.' } });
    const result = await executeTool('loops_api_call', { apiKey: 'lk_custom', method: 'POST', path: '/contacts/update', body: { email: 'a@b.co' } }, { dispatcher: svc.agent, ...fast });
    expect(svc.requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/contacts/update' });
    expect(svc.requests[0]!.headers.authorization).toBe('Bearer lk_custom');
    expect(JSON.parse(String(svc.requests[0]!.body))).toEqual({ email: 'a@b.co' });
    expect(result).toMatchObject({ success: false, error: { message: 'Contact not found.' } });
  });
});

describe('workflow_api_call', () => {
  it('sends X-API-Key to the path under base_url, which may have a path of its own', async () => {
    const svc = mockService('https://flows.example.com');
    svc.on('GET', '/sim/api/v1/logs', { status: 200, body: { data: [] } });
    const result = await executeTool('workflow_api_call', { base_url: 'https://flows.example.com/sim/', apiKey: 'wf-key', path: '/api/v1/logs', query: { workspaceId: 'ws_1' } }, { dispatcher: svc.agent, ...fast });
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: '/sim/api/v1/logs', query: { workspaceId: 'ws_1' } });
    expect(svc.requests[0]!.headers['x-api-key']).toBe('wf-key');
    expect(result).toMatchObject({ success: true, output: { status: 200, body: { data: [] } } });
  });
});

describe('paths that would leave the base URL', () => {
  const ATTACKS = [
    'https://evil.example/v0/x',
    'http://127.0.0.1:9/x',
    '//evil.example/x',
    '///evil.example/x',
    'evil.example/x',
    '@evil.example/x',
    '/../x',
    '/v0/../../x',
    '/v0/./x',
    '/%2e%2e/x',
    '/%2E%2e/x',
    '/.%2e/x',
    '/%252e%252e/x',
    '/v0%2F..%2F..%2Fx',
    '/v0/%2fevil',
    '/..;/x',
    '/v0\\..\\x',
    '/%5c..%5cx',
    '/x?token=other',
    '/x#frag',
    '/x y',
    '/x\n',
    '/x%0d%0aHost:%20evil',
    '/%zz',
  ];

  it.each(ATTACKS)('%j is invalid_params naming path, and nothing is sent (every service)', async (path) => {
    for (const [id, origin, auth] of [
      ['tinybird_api_call', 'https://api.tinybird.co', { base_url: 'https://api.tinybird.co', token: 't' }],
      ['loops_api_call', 'https://app.loops.so', { apiKey: 'k' }],
      ['workflow_api_call', 'https://flows.example.com', { base_url: 'https://flows.example.com/sim', apiKey: 'k' }],
    ] as const) {
      const svc = mockService(origin);
      const result = await executeTool(id, { ...auth, path }, { dispatcher: svc.agent, retry: false });
      expect(result, `${id} ${path}`).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'path' }] } });
      expect(svc.requests).toHaveLength(0);
    }
  });

  it('keeps the origin and the base path in the resolver itself, even when the param check is bypassed', () => {
    expect(urlUnderBase('https://app.loops.so/api/v1', '/contacts/find')).toBe('https://app.loops.so/api/v1/contacts/find');
    expect(urlUnderBase('https://flows.example.com/sim/', '/api/v1/logs/log%201')).toBe('https://flows.example.com/sim/api/v1/logs/log%201');
    for (const path of ['//evil.example/x', '/../x', '/%2e%2e/x']) expect(() => urlUnderBase('https://app.loops.so/api/v1', path)).toThrow(/path/);
    expect(unsafePathReason('/v0/pipes/top.json')).toBeUndefined();
    expect(unsafePathReason('/v0/..x/y...')).toBeUndefined();
  });

  it('percent-encodes what a URL parser would (braces, quotes, non-ASCII) instead of calling it a move', async () => {
    // Found by the fuzz family: "/{" was refused as leaving the base path.
    expect(urlUnderBase('https://api.tinybird.co', '/v0/pipes/{name}.json')).toBe('https://api.tinybird.co/v0/pipes/%7Bname%7D.json');
    expect(urlUnderBase('https://app.loops.so/api/v1', '/contacts/"é"<x>^`|')).toBe('https://app.loops.so/api/v1/contacts/%22%C3%A9%22%3Cx%3E%5E%60%7C');
    expect(urlUnderBase('https://app.loops.so/api/v1', '/a%7Bb')).toBe('https://app.loops.so/api/v1/a%7Bb');
    expect(unsafePathReason('/x/\uD800')).toBe('cannot hold a lone UTF-16 surrogate');
    const svc = mockService('https://app.loops.so');
    svc.on('GET', '/api/v1/contacts/%7B%C3%A9%7D', { status: 200, body: { ok: true } });
    const result = await executeTool('loops_api_call', { apiKey: 'k', path: '/contacts/{é}' }, { dispatcher: svc.agent, retry: false });
    expect(result).toMatchObject({ success: true, output: { status: 200, body: { ok: true } } });
    expect(svc.requests).toMatchObject([{ method: 'GET', path: '/api/v1/contacts/%7B%C3%A9%7D' }]);
  });
});
