/**
 * Issue 21's fast paths for large answers: secrets looked for in the raw bytes (the deep
 * walk only on a hit), and rows checked in place. Each must still mask every form of a
 * secret and still refuse a wrong shape.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeTool } from '../../src/index.js';
import { getTool } from '../../src/registry.js';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { runTool } from '../../src/harness/run/execute.js';
import { Redactor } from '../../src/harness/mask/redact.js';
import { bytesHoldNoNeedle, RAW_SCAN_MIN_BYTES } from '../../src/harness/mask/redact-bytes.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readParts, SECRET, validParams } from './fixtures.js';

/** Rows enough to be well past the raw-scan threshold. */
const ROWS = 3000;
const rows = () => Array.from({ length: ROWS }, (_, i) => ({ id: i, user: `user_${i}`, path: `/docs/${i % 97}` }));

/** Hands back the body's rows, and the call's own API key next to them (from params, not the body). */
const rowsTool = defineTool({
  ...readParts,
  id: 'example_rows',
  output: z.object({ data: z.array(z.record(z.string(), z.unknown())), key: z.string() }),
  // Rows not copied, as the query tools do: the output's scan then meets the body's own objects.
  outputCheck: z.object({ data: z.custom<Record<string, unknown>[]>((v) => Array.isArray(v)), key: z.string() }),
  response: (res, p) => ({ data: (res.body as { data: Record<string, unknown>[] }).data, key: p.apiKey }),
});

function jsonReply(text: string) {
  return { status: 200, body: text, headers: { 'content-type': 'application/json' } };
}

async function callWith(text: string, secret = SECRET) {
  expect(Buffer.byteLength(text)).toBeGreaterThan(RAW_SCAN_MIN_BYTES);
  const svc = mockService(ORIGIN);
  svc.on('GET', '/items', jsonReply(text));
  return runTool(rowsTool, { ...validParams, apiKey: secret }, { dispatcher: svc.agent });
}

/** Every character as a `\uXXXX` escape: the JSON decodes to the secret, the bytes never hold it. */
const unicodeEscaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('a secret in a large answer is masked in every form', () => {
  const body = (value: string, at = 2500) => {
    const data: Record<string, unknown>[] = rows();
    data[at] = { ...data[at], note: value };
    return data;
  };

  it.each([
    ['plain', (s: string) => JSON.stringify({ data: body(`token ${s} echoed`) })],
    ['URL-encoded', (s: string) => JSON.stringify({ data: body(`https://x/?t=${encodeURIComponent(s)}`) })],
    ['as a key', (s: string) => JSON.stringify({ data: [...rows(), { [s]: 1 }] })],
    ['spelled with \\u escapes', (s: string) => JSON.stringify({ data: rows() }).replace('"user_2000"', `"${unicodeEscaped(s)}"`)],
    ['half \\u-escaped', (s: string) => JSON.stringify({ data: rows() }).replace('"user_2000"', `"${s.slice(0, 5)}${unicodeEscaped(s.slice(5))}"`)],
  ])('%s', async (_form, make) => {
    const result = await callWith(make(SECRET));
    expect(result.success).toBe(true);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(encodeURIComponent(SECRET));
    expect(JSON.stringify(result)).toContain('[redacted]');
  });

  it('JSON-escaped: a secret with a quote, a backslash and a slash, sent escaped', async () => {
    const secret = 'sk/"quoted\\path"';
    const text = JSON.stringify({ data: body(`echo ${secret}`) });
    expect(text).not.toContain(secret);
    const result = await callWith(text, secret);
    expect(result.success && (result.output.data[2500] as { note: string }).note).toBe('echo [redacted]');
    // The slash spelled `\/` (PHP's habit) decodes to the same secret.
    const slashed = await callWith(text.replace('sk/', 'sk\\/'), secret);
    expect(slashed.success && (slashed.output.data[2500] as { note: string }).note).toBe('echo [redacted]');
  });

  it('a clean large answer comes back as the same row objects, the params secret still masked', async () => {
    const svc = mockService(ORIGIN);
    const text = JSON.stringify({ data: rows() });
    svc.on('GET', '/items', jsonReply(text));
    const result = await runTool(rowsTool, validParams, { dispatcher: svc.agent });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.output.key).toBe('[redacted]');
    expect(result.output.data).toHaveLength(ROWS);
    expect(result.output.data[17]).toEqual({ id: 17, user: 'user_17', path: '/docs/17' });
  });
});

describe('bytesHoldNoNeedle', () => {
  const bytes = (s: string) => Buffer.from(s, 'utf8');
  it('clears bytes without the needle and without escapes', () => {
    expect(bytesHoldNoNeedle(bytes('{"a":"b"}'), ['secret'])).toBe(true);
  });
  it('never clears bytes that hold a needle, or a needle of U+FFFD', () => {
    expect(bytesHoldNoNeedle(bytes('{"a":"xsecretx"}'), ['secret'])).toBe(false);
    expect(bytesHoldNoNeedle(bytes('{"a":"b"}'), ['se\ufffdcret'])).toBe(false);
    expect(bytesHoldNoNeedle(bytes('{"a":"ünïcode-sëcret"}'), ['ünïcode-sëcret'])).toBe(false);
  });
  it('a \\u escape anywhere makes the bytes doubtful', () => {
    expect(bytesHoldNoNeedle(bytes('{"a":"\\u0041"}'), ['secret'])).toBe(false);
  });
  it('short escapes are harmless unless a needle holds a character they spell', () => {
    expect(bytesHoldNoNeedle(bytes('{"a":"x\\"y\\/z\\n"}'), ['secret'])).toBe(true);
    expect(bytesHoldNoNeedle(bytes('{"a":"x\\"y"}'), ['se/cret'])).toBe(false);
    expect(bytesHoldNoNeedle(bytes('{"a":"x\\"y"}'), ['se"cret'])).toBe(false);
  });
  it('the redactor trusts only a clean body, and only when it has secrets', () => {
    const body = { data: [{ a: 1 }] };
    expect(new Redactor([]).trustIfClean(bytes(JSON.stringify(body)), body)).toBe(false);
    const r = new Redactor(['secret-value']);
    expect(r.trustIfClean(bytes('{"data":[{"a":"secret-value"}]}'), body)).toBe(false);
    expect(r.isTrusted(body)).toBe(false);
    expect(r.trustIfClean(bytes(JSON.stringify(body)), body)).toBe(true);
    expect(r.isTrusted(body) && r.isTrusted(body.data)).toBe(true);
    // A trusted body is not walked: what the bytes did not hold, its objects do not hold.
    expect(r.value({ body, extra: 'secret-value' })).toEqual({ body, extra: '[redacted]' });
  });
});

describe('a large answer of the wrong shape is still invalid_response', () => {
  const BASE = 'https://api.tinybird.co';
  const result = (data: unknown) => ({
    meta: [{ name: 'id', type: 'UInt64' }],
    data,
    rows: ROWS,
    statistics: { elapsed: 0.001, rows_read: ROWS, bytes_read: 1 },
  });
  const query = async (tool: 'tinybird_query' | 'tinybird_query_pipe', body: unknown) => {
    const svc = mockService(BASE);
    svc.on(tool === 'tinybird_query' ? 'POST' : 'GET', tool === 'tinybird_query' ? '/v0/sql' : '/v0/pipes/top.json', { status: 200, body });
    const params = tool === 'tinybird_query' ? { base_url: BASE, token: 'p.token-value', query: 'SELECT 1 FORMAT JSON' } : { base_url: BASE, token: 'p.token-value', pipe: 'top' };
    return executeTool(tool, params, { dispatcher: svc.agent });
  };

  it.each(['tinybird_query', 'tinybird_query_pipe'] as const)('%s: a row that is not an object, deep in the answer', async (tool) => {
    for (const bad of [42, null, [1, 2], 'row']) {
      const data: unknown[] = rows();
      data[2999] = bad;
      const res = await query(tool, result(data));
      expect(res.success).toBe(false);
      if (res.success) return;
      expect(res.error.code).toBe('invalid_response');
      expect(res.error.issues?.[0]?.path).toBe('data.2999');
    }
  });

  it.each(['tinybird_query', 'tinybird_query_pipe'] as const)('%s: data that is not an array of rows', async (tool) => {
    const res = await query(tool, result({ 0: { id: 1 } }));
    expect(res.success || res.error.code).toBe('invalid_response');
  });

  it('a clean large answer passes, its rows the same objects the service sent', async () => {
    const res = await query('tinybird_query', result(rows()));
    expect(res.success).toBe(true);
    if (res.success) expect((res.output.data as unknown[]).length).toBe(ROWS);
  });
});

describe('outputCheck accepts exactly what the output schema accepts', () => {
  it.each(['tinybird_query', 'tinybird_query_pipe'])('%s', (id) => {
    const tool = getTool(id)!;
    expect(tool.outputCheck).toBeDefined();
    const good = { data: [{ a: 1 }, {}], meta: [{ name: 'a', type: 'UInt8' }], rows: 2, statistics: { elapsed: 0, rows_read: 2, bytes_read: 2 } };
    const samples: unknown[] = [
      good,
      { ...good, data: [] },
      { ...good, data: [{ a: 1 }, 3] },
      { ...good, data: [[1]] },
      { ...good, data: [null] },
      { ...good, data: 'a,b\n1,2' },
      { ...good, data: undefined },
      { ...good, rows: 1.5 },
      { ...good, data: { 0: {} } },
      null,
    ];
    for (const sample of samples) {
      expect(tool.outputCheck!.safeParse(sample).success, JSON.stringify(sample)).toBe(tool.output.safeParse(sample).success);
    }
  });
});

describe('bytesHoldNoNeedle: a needle with a control character', () => {
  it('is never cleared when the text has an escape', () => {
    expect(bytesHoldNoNeedle(Buffer.from('{"a":"x\\ty"}'), ['sec\tret'])).toBe(false);
    expect(bytesHoldNoNeedle(Buffer.from('{"a":"x\\ty"}'), ['secret'])).toBe(true);
  });
});
