/**
 * The custom API call's checks one by one, each with its exact reason: the path (in the param
 * schema and again in the resolver, for a caller that skips the schema), the headers a caller
 * may not set, and which methods carry the body.
 */
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../src/index.js';
import { unsafePathReason, urlUnderBase } from '../../../src/harness/define/custom-call.js';
import { ToolFailure } from '../../../src/harness/errors.js';
import { mockService } from '../../helpers/mock-service.js';

const LOOPS = 'https://app.loops.so';

describe('unsafePathReason', () => {
  it.each([
    ['contacts', 'must start with / (it is relative to the service\'s base URL)'],
    ['//evil.example/x', 'cannot start with // (that names another host)'],
    ['/a?b=1', 'cannot hold ? or #: put query parameters in query'],
    ['/a#b', 'cannot hold ? or #: put query parameters in query'],
    ['/a\\b', 'cannot hold a backslash, whitespace or control characters'],
    ['/a b', 'cannot hold a backslash, whitespace or control characters'],
    ['/a\u0001b', 'cannot hold a backslash, whitespace or control characters'],
    ['/a\u007fb', 'cannot hold a backslash, whitespace or control characters'],
    ['/a/\uDC00', 'cannot hold a lone UTF-16 surrogate'],
    ['/a/%zz', 'has a malformed percent-encoding in "%zz"'],
    ['/a/.', 'cannot hold a . or .. segment (encoded or not)'],
    ['/a/../b', 'cannot hold a . or .. segment (encoded or not)'],
    ['/a/%2e%2E/b', 'cannot hold a . or .. segment (encoded or not)'],
    ['/a/%2525252e/b', 'cannot hold a . or .. segment (encoded or not)'],
    ['/a/..;jsessionid=x/b', 'cannot hold a . or .. segment (encoded or not)'],
    ['/a/.;x/b', 'cannot hold a . or .. segment (encoded or not)'],
    ['/a/%2F/b', 'cannot hold an encoded / or \\ ("%2F")'],
    ['/a/%5c', 'cannot hold an encoded / or \\ ("%5c")'],
    ['/a/%01', 'cannot hold encoded control characters'],
    ['/\uff0e\uff0e/x', 'cannot hold "\uff0e\uff0e": it changes under Unicode NFKC normalization, and a server that normalizes could read a look-alike of . , .. or / in it'],
    ['/\ufe52\ufe52/x', 'cannot hold "\ufe52\ufe52": it changes under Unicode NFKC normalization, and a server that normalizes could read a look-alike of . , .. or / in it'],
    ['/\u2025/x', 'cannot hold "\u2025": it changes under Unicode NFKC normalization, and a server that normalizes could read a look-alike of . , .. or / in it'],
    ['/a/%EF%BC%8E%EF%BC%8E', 'cannot hold "%EF%BC%8E%EF%BC%8E": it changes under Unicode NFKC normalization, and a server that normalizes could read a look-alike of . , .. or / in it'],
    ['/a\uff0f..', 'cannot hold "a\uff0f..": it changes under Unicode NFKC normalization, and a server that normalizes could read a look-alike of . , .. or / in it'],
  ])('%j: %s', (path, reason) => {
    expect(unsafePathReason(path)).toBe(reason);
  });

  it('decodes a segment at most four times over and refuses one that still decodes after that', () => {
    // `..` percent-encoded `levels` times (encodeURIComponent leaves dots alone, so the first level is by hand).
    const dots = (levels: number): string => (levels === 1 ? '%2e%2e' : encodeURIComponent(dots(levels - 1)));
    expect(dots(4)).toBe('%2525252e%2525252e');
    // Four levels: found. Five: refused as a malformed encoding, not let through.
    expect(unsafePathReason(`/a/${dots(4)}`)).toBe('cannot hold a . or .. segment (encoded or not)');
    expect(unsafePathReason(`/a/${dots(5)}`)).toBe(`has a malformed percent-encoding in "${dots(5)}"`);
    expect(unsafePathReason(`/a/${encodeURIComponent(encodeURIComponent(encodeURIComponent('x y')))}`)).toBeUndefined();
  });

  it.each(['/', '/v0/pipes/top.json', '/a/..b/c..', '/a/.../b', '/a;x/b..;', '/%7Bname%7D', '/é/ü'])('%j is a path under the base', (path) => {
    expect(unsafePathReason(path)).toBeUndefined();
  });
});

describe('urlUnderBase', () => {
  const refusal = (base: string, path: string) => {
    try {
      urlUnderBase(base, path);
    } catch (error) {
      expect(error).toBeInstanceOf(ToolFailure);
      return (error as ToolFailure).error;
    }
    throw new Error(`${path} was not refused`);
  };

  it('refuses with invalid_params naming the path and the reason', () => {
    expect(refusal('https://app.loops.so/api/v1', '/a/../b')).toEqual({
      code: 'invalid_params',
      message: 'invalid params: path cannot hold a . or .. segment (encoded or not)',
      retryable: false,
      issues: [{ path: 'path', message: 'cannot hold a . or .. segment (encoded or not)' }],
    });
  });

  it('keeps the base path whatever trailing slashes the base has', () => {
    expect(urlUnderBase('https://flows.example.com/sim//', '/api/x')).toBe('https://flows.example.com/sim/api/x');
    expect(urlUnderBase('https://flows.example.com/', '/api/x')).toBe('https://flows.example.com/api/x');
    expect(urlUnderBase('https://flows.example.com', '/')).toBe('https://flows.example.com/');
  });
});

describe('loops_api_call params and body', () => {
  const call = async (params: Record<string, unknown>) => {
    const svc = mockService(LOOPS);
    svc.on('GET', '/api/v1/x', { status: 200, body: { ok: true } });
    svc.on('POST', '/api/v1/x', { status: 200, body: { ok: true } });
    svc.on('DELETE', '/api/v1/x', { status: 200, body: { ok: true } });
    const result = await executeTool('loops_api_call', { apiKey: 'lk_paths', path: '/x', ...params }, { dispatcher: svc.agent, retry: false });
    return { result, requests: svc.requests };
  };

  it('names the reason in the param issue before anything is sent', async () => {
    const { result, requests } = await call({ path: 'x' });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', issues: [{ path: 'path', message: 'path must start with / (it is relative to the service\'s base URL)' }] },
      meta: { attempts: 0 },
    });
    expect(requests).toHaveLength(0);
  });

  const ALLOWED = 'Accept, Accept-Language, Content-Type, Cache-Control, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, X-Request-Id, traceparent, tracestate';
  it.each(['Authorization', 'X-API-KEY', 'Host', 'Cookie', 'Idempotency-Key', 'Transfer-Encoding', 'Range', 'if-range', 'Accept-Encoding', 'X-HTTP-Method-Override', 'X-Method-Override', 'X-Forwarded-Host'])('refuses a %s header, in any case, naming it', async (name) => {
    const { result, requests } = await call({ headers: { 'X-Request-Id': 't1', [name]: 'v' } });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', issues: [{ path: `headers.${name}`, message: `${name} cannot be set; a custom call may set only ${ALLOWED}` }] },
    });
    expect(requests).toHaveLength(0);
  });

  it('takes a Content-Type only when it is a JSON type (the body is sent as JSON)', async () => {
    const refused = await call({ method: 'POST', body: { a: 1 }, headers: { 'Content-Type': 'text/plain' } });
    expect(refused.result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'headers.Content-Type', message: 'Content-Type must be a JSON media type: the body is sent as JSON' }] } });
    expect(refused.requests).toHaveLength(0);
    const merge = await call({ method: 'POST', body: { a: 1 }, headers: { 'Content-Type': 'application/merge-patch+json; charset=utf-8' } });
    expect(merge.result).toMatchObject({ success: true });
    expect(merge.requests[0]!.headers['content-type']).toBe('application/merge-patch+json; charset=utf-8');
  });

  it('sends the headers a caller may set, as given', async () => {
    const { result, requests } = await call({ headers: { 'X-Request-Id': 't1', 'Accept-Language': 'fr', Accept: 'application/json', 'If-None-Match': '"v1"' } });
    expect(result).toMatchObject({ success: true, output: { status: 200, body: { ok: true } } });
    expect(requests[0]!.headers).toMatchObject({ 'x-request-id': 't1', 'accept-language': 'fr', accept: 'application/json', 'if-none-match': '"v1"', authorization: 'Bearer lk_paths' });
  });

  it('sends a body with POST and DELETE, never with GET, and none when there is none', async () => {
    const get = await call({ body: { a: 1 } });
    expect(get.requests).toMatchObject([{ method: 'GET', path: '/api/v1/x', body: undefined }]);
    expect(get.requests[0]!.headers['content-type']).toBeUndefined();
    const post = await call({ method: 'POST', body: { a: 1 } });
    expect(post.requests).toMatchObject([{ method: 'POST', path: '/api/v1/x' }]);
    expect(JSON.parse(String(post.requests[0]!.body))).toEqual({ a: 1 });
    expect(post.requests[0]!.headers['content-type']).toBe('application/json');
    const del = await call({ method: 'DELETE', body: ['x'] });
    expect(JSON.parse(String(del.requests[0]!.body))).toEqual(['x']);
    const empty = await call({ method: 'POST' });
    expect(empty.requests).toMatchObject([{ method: 'POST', body: undefined }]);
  });
});
