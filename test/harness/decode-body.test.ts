import { describe, expect, it } from 'vitest';
import { decodeBody, flattenHeaders } from '../../src/harness/send/decode-body.js';

const body = Buffer.from('{"a":1}');
const decode = (status: number, contentType: string | undefined, method = 'GET', bytes = body) =>
  decodeBody(status, contentType === undefined ? {} : { 'content-type': contentType }, bytes, method);

describe('decodeBody and flattenHeaders', () => {
  it('reads no body for 204, 205, 304, HEAD or zero bytes, whatever the content type says', () => {
    for (const [status, method] of [[204, 'GET'], [205, 'POST'], [304, 'GET'], [200, 'HEAD']] as const) {
      expect(decode(status, 'application/json', method)).toEqual({ body: undefined, bodyKind: 'empty' });
    }
    expect(decode(200, 'application/json', 'GET', Buffer.alloc(0))).toEqual({ body: undefined, bodyKind: 'empty' });
    for (const status of [200, 201, 203, 206, 400, 500]) expect(decode(status, 'application/json')).toEqual({ body: { a: 1 }, bodyKind: 'json' });
  });

  it('classifies content types from their start, case-insensitively, the same on every call', () => {
    expect(decode(200, 'Application/Problem+JSON; charset=utf-8')).toEqual({ body: { a: 1 }, bodyKind: 'json' });
    expect(decode(200, 'application/vnd.api+json')).toEqual({ body: { a: 1 }, bodyKind: 'json' });
    // A JSON or text type inside another one is neither.
    expect(decode(200, 'image/x-application/json').bodyKind).toBe('binary');
    expect(decode(200, 'application/octet-stream; x=text/plain').bodyKind).toBe('binary');
    expect(decode(200, undefined)).toEqual({ body: '{"a":1}', bodyKind: 'text' });
    expect(decode(200, 'text/csv')).toEqual({ body: '{"a":1}', bodyKind: 'text' });
    for (let i = 0; i < 3; i++) expect(decode(200, 'application/x-ndjson').bodyKind).toBe('text');
    // Past the 256 types it remembers, a type is still classified, each time afresh.
    for (let i = 0; i < 300; i++) expect(decode(200, `application/x-custom-${i}`).bodyKind).toBe('binary');
    expect(decode(200, 'application/x-custom-299').bodyKind).toBe('binary');
    expect(decode(200, 'text/x-custom-299').bodyKind).toBe('text');
  });

  it('hands undici headers back as they are when none repeats, and joins repeated ones', () => {
    const plain = { 'content-type': 'text/plain', 'x-a': '1' };
    expect(flattenHeaders(plain)).toBe(plain);
    const repeated = flattenHeaders({ 'Set-Cookie': ['a=1', 'b=2'], 'x-a': '1', 'x-gone': undefined });
    expect({ ...repeated }).toEqual({ 'set-cookie': 'a=1, b=2', 'x-a': '1' });
    expect(Object.getPrototypeOf(repeated)).toBeNull();
  });
});
