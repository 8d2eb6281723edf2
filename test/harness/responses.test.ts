import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { codeForStatus, errorFromResponse, serviceIssues, serviceMessage } from '../../src/harness/errors.js';
import { runTool } from '../../src/harness/run/execute.js';
import type { HttpResponse } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readParts, readTool, validParams } from './fixtures.js';

/** A tool that returns whatever the service sent, to look at how bodies are read. */
const rawTool = defineTool({
  ...readParts,
  id: 'example_raw',
  output: z.object({ kind: z.string(), body: z.unknown() }),
  response: (res) => ({ kind: res.bodyKind, body: res.body }),
});

const res = (status: number, body: unknown, bodyKind: HttpResponse['bodyKind'] = 'json'): HttpResponse => ({
  status,
  headers: {},
  body,
  bodyKind,
});

describe('reading bodies by content type', () => {
  it.each([
    ['JSON', { 'content-type': 'application/json; charset=utf-8' }, '{"a":1}', 'json', { a: 1 }],
    ['problem+json', { 'content-type': 'application/problem+json' }, '{"a":2}', 'json', { a: 2 }],
    ['plain text', { 'content-type': 'text/plain' }, 'Invalid token\n', 'text', 'Invalid token\n'],
    ['NDJSON', { 'content-type': 'application/x-ndjson' }, '{"a":1}\n', 'text', '{"a":1}\n'],
    ['no content type', {}, 'hello', 'text', 'hello'],
    ['JSON type over a non-JSON body', { 'content-type': 'application/json' }, '<html>', 'text', '<html>'],
    ['empty', { 'content-type': 'application/json' }, '', 'empty', undefined],
  ])('%s', async (_name, headers, data, kind, body) => {
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(200, data, { headers });
    const result = await runTool(rawTool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { kind, body } });
  });

  it('reads binary as bytes', async () => {
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(200, Buffer.from([0x50, 0x41, 0x52, 0x31]), {
      headers: { 'content-type': 'application/octet-stream' },
    });
    const result = await runTool(rawTool, validParams, { dispatcher: svc.agent });
    expect(result.success && result.output.kind).toBe('binary');
    expect(result.success && Buffer.from(result.output.body as Uint8Array).toString()).toBe('PAR1');
  });

  it('joins a repeated response header', async () => {
    const headersTool = defineTool({
      ...readParts,
      id: 'example_headers',
      output: z.object({ multi: z.string(), type: z.string() }),
      response: (res) => ({ multi: res.headers['x-multi']!, type: res.headers['content-type']! }),
    });
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(200, '{}', {
      headers: { 'content-type': 'application/json', 'x-multi': ['a', 'b'] },
    });
    const result = await runTool(headersTool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { multi: 'a, b', type: 'application/json' } });
  });

  it('reads a 205 as empty, whatever it claims', async () => {
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(205, '', { headers: { 'content-type': 'application/json' } });
    const result = await runTool(rawTool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { kind: 'empty' }, meta: { status: 205 } });
  });
});

describe('errors normalized from status and body', () => {
  it('maps statuses to codes', () => {
    const codes = [400, 401, 403, 404, 405, 408, 409, 413, 422, 429, 500, 503].map(codeForStatus);
    expect(codes).toEqual([
      'bad_request',
      'unauthorized',
      'forbidden',
      'not_found',
      'bad_request',
      'timeout',
      'conflict',
      'payload_too_large',
      'bad_request',
      'rate_limited',
      'upstream_error',
      'upstream_error',
    ]);
  });

  it("keeps the service's own message from JSON or text", () => {
    expect(serviceMessage(res(403, { error: 'token needs scope PIPES:READ', documentation: 'x' }))).toBe(
      'token needs scope PIPES:READ',
    );
    expect(serviceMessage(res(400, { success: false, message: 'Invalid email' }))).toBe('Invalid email');
    expect(serviceMessage(res(400, { error: { message: 'nested' } }))).toBe('nested');
    expect(serviceMessage(res(403, 'Invalid token\n', 'text'))).toBe('Invalid token');
    expect(serviceMessage(res(502, undefined, 'empty'))).toBeUndefined();
    expect(errorFromResponse(res(502, undefined, 'empty'), true).message).toBe('HTTP 502');
  });

  it('keeps field errors as issues', () => {
    expect(
      serviceIssues(res(400, { error: 'Invalid', details: [{ path: ['limit'], message: 'too big' }, 'plain', { field: 'order', message: 'asc or desc' }] })),
    ).toEqual([
      { path: 'limit', message: 'too big' },
      { path: '', message: 'plain' },
      { path: 'order', message: 'asc or desc' },
    ]);
    expect(serviceIssues(res(400, { error: 'x', details: [] }))).toBeUndefined();
    expect(serviceIssues(res(400, 'text', 'text'))).toBeUndefined();
  });

  it('returns the JSON 403 of a missing scope as forbidden with its message', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 403, body: { error: 'token needs scope PIPES:READ' } });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'forbidden', status: 403, message: 'token needs scope PIPES:READ', retryable: false },
      meta: { attempts: 1, status: 403 },
    });
  });
});

describe('output validation', () => {
  it('answers invalid_response when the service sends an unexpected shape', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: 'yes' } });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_response', status: 200, issues: [{ path: 'ok' }] },
      meta: { status: 200 },
    });
  });

  it('answers invalid_response when the response mapping itself throws', async () => {
    const throwing = defineTool({
      ...readParts,
      output: readTool.output,
      id: 'example_throwing',
      response: () => {
        throw new Error('no such field');
      },
    });
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await runTool(throwing, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', message: expect.stringContaining('no such field') } });
  });
});
