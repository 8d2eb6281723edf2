import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildRequest, encodeQuery, formEncode, joinUrl, toNdjson } from '../../src/harness/send/request.js';
import { runTool } from '../../src/harness/run/execute.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readTool, validParams, writeTool } from './fixtures.js';

describe('request building', () => {
  it('encodes arrays as repeated keys and leaves out null and undefined', () => {
    expect(encodeQuery({ a: 1, b: ['x', 'y z'], c: undefined, d: null, e: false })).toBe('a=1&b=x&b=y+z&e=false');
  });

  it('encodes each key and value exactly as URLSearchParams does (#21: a table, not a URLSearchParams per call)', () => {
    const usp = (text: string) => new URLSearchParams({ k: text }).toString().slice(2);
    // Every ASCII character alone and in the middle of text, then the other classes: Latin-1,
    // the BMP, a pair, lone and reversed surrogates, and non-ASCII after ASCII that needs encoding.
    const samples: string[] = [];
    for (let c = 0; c < 128; c++) samples.push(String.fromCharCode(c), `a${String.fromCharCode(c)}b`);
    samples.push('', 'plain_TEXT-0.9*', '\u0080', 'a\u0080', '\u007f\u0080', 'é', 'aé b', '日本 語', '\u{1F600}', 'x\u{1F600}!', '\ud800', 'a\udc00b', '\udc00\ud800', "it's (a) ~test~!", 'a b\u00a0c', '%20+&=');
    for (const text of samples) expect(formEncode(text), JSON.stringify(text)).toBe(usp(text));
    expect(encodeQuery({ 'a b': 'c&d', é: ['x y', '~'] })).toBe(new URLSearchParams([['a b', 'c&d'], ['é', 'x y'], ['é', '~']]).toString());
  });

  it('asks for JSON first and sends no Idempotency-Key header unless the call has a key', () => {
    const plain = buildRequest({ method: 'GET', url: 'http://h/x' }) as { headers: Record<string, string> };
    expect(plain.headers).toEqual({ accept: 'application/json, text/plain;q=0.9, */*;q=0.8' });
    expect('idempotency-key' in plain.headers).toBe(false);
    const keyed = buildRequest({ method: 'POST', url: 'http://h/x', idempotencyKey: 'k-1', headers: { 'X-Trace': 't' } }) as { headers: Record<string, string> };
    expect(keyed.headers).toEqual({ accept: 'application/json, text/plain;q=0.9, */*;q=0.8', 'x-trace': 't', 'idempotency-key': 'k-1' });
  });

  it('encodes only the query\'s own keys', () => {
    const inherited = Object.assign(Object.create({ inherited: 'no' }) as Record<string, string>, { own: 'yes' });
    expect(encodeQuery(inherited)).toBe('own=yes');
    expect(encodeQuery(JSON.parse('{"__proto__":"p","q":"1"}') as Record<string, string>)).toBe('__proto__=p&q=1');
  });

  it('sends query strings with repeated keys', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    await runTool(readTool, { ...validParams, count: 2, tags: ['red', 'blue'] }, { dispatcher: svc.agent });
    expect(svc.requests[0]).toMatchObject({
      method: 'GET',
      path: '/items',
      query: { name: 'widget', count: '2', tag: ['red', 'blue'] },
      body: undefined,
    });
  });

  it('sends JSON with its content type', async () => {
    const svc = mockService(ORIGIN);
    svc.on('POST', '/items', { status: 201, body: { ok: true } });
    await runTool(writeTool, validParams, { dispatcher: svc.agent });
    expect(svc.requests[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(svc.requests[0]!.body))).toEqual({ name: 'widget' });
  });

  it('encodes form, NDJSON and text bodies', async () => {
    const form = await buildRequest({ method: 'POST', url: 'http://h/x', body: { form: { q: 'a&b', n: [1, 2] } } });
    expect(form.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form.body).toBe('q=a%26b&n=1&n=2');
    const nd = await buildRequest({ method: 'POST', url: 'http://h/x', body: { ndjson: [{ a: 1 }, '{"b":2}'] } });
    expect(nd.headers['content-type']).toBe('application/x-ndjson');
    expect(nd.body).toBe('{"a":1}\n{"b":2}\n');
    const text = await buildRequest({ method: 'POST', url: 'http://h/x?k=1', query: { j: 2 }, body: { text: 'hi' } });
    expect(text.url).toBe('http://h/x?k=1&j=2');
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(toNdjson('as-is')).toBe('as-is');
  });

  it('gzips for real: the sent bytes decompress to the NDJSON', async () => {
    const built = await buildRequest({ method: 'POST', url: 'http://h/x', body: { ndjson: [{ a: 1 }, { b: 2 }] }, gzip: true });
    expect(built.headers['content-encoding']).toBe('gzip');
    expect(built.body).toBeInstanceOf(Uint8Array);
    expect(gunzipSync(built.body as Uint8Array).toString()).toBe('{"a":1}\n{"b":2}\n');
  });

  it('gzips a multi-megabyte body whole, in zlib output buffers sized to it', async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => ({ id: i, path: `/p/${i}`, at: `2026-11-22T00:00:${String(i % 60).padStart(2, '0')}Z` }));
    const ndjson = Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(ndjson.length).toBeGreaterThan(2_000_000);
    const built = await buildRequest({ method: 'POST', url: 'http://h/x', body: { ndjson }, gzip: true });
    expect(Buffer.compare(gunzipSync(built.body as Uint8Array), ndjson)).toBe(0);
  });

  it('lower-cases headers, drops undefined ones and sends the idempotency key', async () => {
    const built = await buildRequest({
      method: 'GET',
      url: 'http://h/x',
      headers: { 'X-Custom': 'v', 'X-Gone': undefined },
      idempotencyKey: 'key-1',
    });
    expect(built.headers).toMatchObject({ 'x-custom': 'v', 'idempotency-key': 'key-1' });
    expect('x-gone' in built.headers).toBe(false);
  });

  it('joins base URLs without doubling the slash', () => {
    expect(joinUrl('https://api.tinybird.co//', '/v0/sql')).toBe('https://api.tinybird.co/v0/sql');
  });
});
