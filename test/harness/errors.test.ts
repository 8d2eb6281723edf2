import { describe, expect, it } from 'vitest';
import { errorFromResponse, failure, serviceIssues, serviceMessage, ToolCallError } from '../../src/harness/errors.js';
import type { HttpResponse } from '../../src/harness/types.js';

const res = (status: number, body: unknown): HttpResponse => ({ status, headers: {}, body, bodyKind: typeof body === 'string' ? 'text' : 'json' });

describe("a service's error, as the harness reads it", () => {
  it('names its error classes, and ToolCallError says which tool failed and how', () => {
    const failed = failure('timeout', 'no answer', { retryable: true });
    expect(failed).toBeInstanceOf(Error);
    expect([failed.name, failed.message, failed.error]).toEqual(['ToolFailure', 'no answer', { code: 'timeout', message: 'no answer', retryable: true }]);
    const meta = { attempts: 2, durationMs: 5 };
    const thrown = new ToolCallError('example_list', { code: 'not_found', message: 'gone', retryable: false }, meta);
    expect([thrown.name, thrown.message, thrown.meta]).toEqual(['ToolCallError', 'example_list failed (not_found): gone', meta]);
  });

  it('reads the message from error, message, detail or error_description, trimmed, skipping blank ones', () => {
    expect(serviceMessage(res(400, { detail: 'Not a valid cursor' }))).toBe('Not a valid cursor');
    expect(serviceMessage(res(401, { error_description: 'token expired' }))).toBe('token expired');
    expect(serviceMessage(res(400, { error: '  padded  ' }))).toBe('padded');
    expect(serviceMessage(res(400, { error: '   ', message: 'the real one' }))).toBe('the real one');
    expect(serviceMessage(res(400, { error: { message: 42 }, message: 'a string wins' }))).toBe('a string wins');
    expect(serviceMessage(res(400, { error: { code: 7 } }))).toBeUndefined();
    expect(serviceMessage(res(400, null))).toBeUndefined();
    expect(serviceMessage(res(400, ['error']))).toBeUndefined();
    expect(serviceMessage(res(400, '  \n'))).toBeUndefined();
  });

  it('reads field issues with their paths joined by dots, and the whole entry when it has no message', () => {
    expect(serviceIssues(res(400, { errors: [{ path: ['data', 0, 'ts'], message: 'not a date' }] }))).toEqual([{ path: 'data.0.ts', message: 'not a date' }]);
    expect(serviceIssues(res(400, { issues: [{ param: 'limit', code: 'too_big' }] }))).toEqual([{ path: 'limit', message: '{"param":"limit","code":"too_big"}' }]);
    expect(serviceIssues(res(400, { errors: [{ message: 'no path' }, null] }))).toEqual([
      { path: '', message: 'no path' },
      { path: '', message: 'null' },
    ]);
    expect(serviceIssues(res(400, { errors: [] }))).toBeUndefined();
    expect(serviceIssues(res(400, 'text'))).toBeUndefined();
  });

  it('builds the error with retryAfterMs and issues only when there are some', () => {
    expect(errorFromResponse(res(503, { error: 'down' }), true)).toEqual({ code: 'upstream_error', message: 'down', status: 503, retryable: true });
    expect(errorFromResponse(res(429, 'slow down'), true, 0)).toEqual({ code: 'rate_limited', message: 'slow down', status: 429, retryable: true, retryAfterMs: 0 });
    expect(errorFromResponse(res(400, { error: 'bad', details: ['x'] }), false)).toEqual({
      code: 'bad_request',
      message: 'bad',
      status: 400,
      retryable: false,
      issues: [{ path: '', message: 'x' }],
    });
  });
});
