import { describe, expect, it } from 'vitest';
import { flattenHeaders } from '../../src/harness/send/decode-body.js';
import { dictionaryOf } from '../../src/harness/dictionary.js';
import { runTool } from '../../src/harness/run/execute.js';
import { Redactor } from '../../src/harness/mask/redact.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';
import { echoTool, ORIGIN, validParams } from './fixtures.js';

/**
 * Secrets that URL-encoding and JSON-escaping change (`+ / = : @ "`, non-ASCII), so a check
 * for the encoded form cannot pass by the raw form being absent. The fixtures' secret
 * (`sk_live_very-secret-value`) is the same under both encodings.
 */
const SECRETS = ['sk+live/Ab==:@"tøken€', 'whsec/9+Zq="ü', 'p.eyJ1Ijoi"x"@host:443/€'];

/** Every form in which a secret could be read back: as it is, URL-encoded, JSON-escaped. */
function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
}

/** Every string in a JSON-like value, object keys included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...strings(item)]);
  return [];
}

function expectNoForm(value: unknown, secret: string): void {
  const texts = [...strings(value), JSON.stringify(value)];
  for (const form of forms(secret)) for (const text of texts) expect(text).not.toContain(form);
}

describe('a secret that URL-encoding and JSON-escaping change', () => {
  it('the test secrets really change under both encodings', () => {
    for (const secret of SECRETS) expect(new Set(forms(secret)).size).toBe(3);
  });

  it.each(SECRETS)('is masked in its URL-encoded form alone (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { next: `https://x.test/cb?token=${encodeURIComponent(secret)}&n=2` } });
    const result = await runTool(echoTool, { ...validParams, apiKey: secret }, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { next: 'https://x.test/cb?token=[redacted]&n=2' } });
    expectNoForm(result, secret);
  });

  it.each(SECRETS)('is masked when it is only an object key (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { tokens: { [secret]: { scopes: ['read'] } } } });
    const result = await runTool(echoTool, { ...validParams, apiKey: secret }, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { tokens: { '[redacted]': { scopes: ['read'] } } } });
    expectNoForm(result, secret);
  });

  it.each(SECRETS)('is masked in an error text that quotes it raw or URL-encoded (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 403, body: `token ${secret} refused; see /help?t=${encodeURIComponent(secret)}` });
    const result = await runTool(echoTool, { ...validParams, apiKey: secret }, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: false, error: { code: 'forbidden', message: 'token [redacted] refused; see /help?t=[redacted]' } });
    expectNoForm(result, secret);
  });

  it.each(SECRETS)('is masked in logged URLs, where it goes out URL-encoded (%s)', async (secret) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: {} });
    const events: HarnessEvent[] = [];
    // The secret also sent as a query value: the request URL holds its URL-encoded form.
    await runTool(echoTool, { ...validParams, apiKey: secret, name: secret }, { dispatcher: svc.agent, logger: (e) => events.push(e) });
    expect(svc.requests[0]!.query.name).toBe(secret);
    expect(events[0]).toMatchObject({ type: 'request', url: `${ORIGIN}/items?name=[redacted]` });
    expectNoForm(events, secret);
  });

  it('Redactor: the raw form, the URL-encoded form and keys, at any depth; values without a secret are returned as they are', () => {
    const [secret] = SECRETS as [string];
    const redactor = new Redactor([secret]);
    const clean = { a: [1, 'x', { b: null }] };
    expect(redactor.value(clean)).toBe(clean);
    expect(redactor.value({ a: [{ [secret]: `u=${encodeURIComponent(secret)}` }], n: 1, f: false })).toEqual({ a: [{ '[redacted]': 'u=[redacted]' }], n: 1, f: false });
    expect(redactor.value({ deep: { [secret]: 1 } })).toEqual({ deep: { '[redacted]': 1 } });
    expect(redactor.value([`${secret}${secret}`])).toEqual(['[redacted][redacted]']);
    expect(redactor.text(`x${encodeURIComponent(secret)}y${secret}z`)).toBe('x[redacted]y[redacted]z');
    // Only plain objects, dictionaries (no prototype) and arrays are walked: other objects are kept as they are.
    const when = new Date(0);
    const copy = redactor.value({ s: secret, when });
    expect(copy.when).toBe(when);
    // Four characters are a secret; three are too short to mask without masking everything.
    expect(new Redactor(['abcd']).text('xabcdx')).toBe('x[redacted]x');
    expect(new Redactor(['abc']).active).toBe(false);
  });
});

/**
 * Objects without a prototype (`dictionaryOf()`): what `flattenHeaders` makes of a response
 * with a repeated header, and the dictionaries of the agents and the monitor. The redactor
 * looks into them as into plain objects, and its copy keeps them without a prototype.
 */
describe('a secret in an object without a prototype (a dictionary)', () => {
  it.each(SECRETS)('is masked in a value, raw or URL-encoded, and the copy has no prototype either (%s)', (secret) => {
    const redactor = new Redactor([secret]);
    const dictionary = dictionaryOf({ raw: `t=${secret}`, encoded: `u=${encodeURIComponent(secret)}`, n: 'clean' });
    const out = redactor.value(dictionary);
    expect(out).not.toBe(dictionary);
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect({ ...out }).toEqual({ raw: 't=[redacted]', encoded: 'u=[redacted]', n: 'clean' });
    expectNoForm(out, secret);
    // The input is left as it was; a plain object's copy is still a plain one.
    expect(dictionary.raw).toBe(`t=${secret}`);
    expect(Object.getPrototypeOf(redactor.value({ s: secret }))).toBe(Object.prototype);
  });

  it.each(SECRETS)('is masked when it is only a key of one (%s)', (secret) => {
    const redactor = new Redactor([secret]);
    const out = redactor.value(dictionaryOf({ [secret]: 1, [`x${encodeURIComponent(secret)}`]: 2 }));
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect(Object.keys(out).sort()).toEqual(['[redacted]', 'x[redacted]']);
    expectNoForm(out, secret);
  });

  it.each(SECRETS)('is masked in one nested in an array and in a plain object, at any depth (%s)', (secret) => {
    const redactor = new Redactor([secret]);
    const inner = dictionaryOf({ deep: [dictionaryOf({ [secret]: secret })] });
    const out = redactor.value({ rows: [1, dictionaryOf({ clean: 'x' }), inner] });
    expect(JSON.parse(JSON.stringify(out))).toEqual({ rows: [1, { clean: 'x' }, { deep: [{ '[redacted]': '[redacted]' }] }] });
    expect(Object.getPrototypeOf(out.rows[2])).toBeNull();
    expectNoForm(out, secret);
  });

  it.each(SECRETS)('is masked in the headers of a response with a repeated header (flattenHeaders) (%s)', (secret) => {
    const redactor = new Redactor([secret]);
    const headers = flattenHeaders({ 'set-cookie': ['a=1', `t=${encodeURIComponent(secret)}`], 'x-echo': secret });
    expect(Object.getPrototypeOf(headers)).toBeNull();
    const out = redactor.value({ status: 200, headers });
    expect({ ...out.headers }).toEqual({ 'set-cookie': 'a=1, t=[redacted]', 'x-echo': '[redacted]' });
    expectNoForm(out, secret);
  });

  it('keeps a `__proto__` key a key, masked inside, and pollutes nothing', () => {
    const [secret] = SECRETS as [string];
    const redactor = new Redactor([secret]);
    // JSON.parse makes `__proto__` an own key; dictionaryOf keeps it one.
    const parsed = JSON.parse(`{"__proto__": {"polluted": ${JSON.stringify(secret)}}, "s": ${JSON.stringify(secret)}}`) as Record<string, unknown>;
    const dictionary = dictionaryOf(parsed);
    expect(Object.hasOwn(dictionary, '__proto__')).toBe(true);
    const out = redactor.value(dictionary);
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect(Object.keys(out)).toEqual(['__proto__', 's']);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(out['__proto__']).toEqual({ polluted: '[redacted]' });
    expect(out.s).toBe('[redacted]');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expectNoForm(out, secret);
  });

});

describe('a `__proto__` key of a plain object', () => {
  it('stays an own key of the masked copy (JSON.parse makes one), never its prototype', () => {
    const [secret] = SECRETS as [string];
    const redactor = new Redactor([secret]);
    // A row of an answer, as JSON.parse hands it over: `__proto__` is an own key holding data.
    const row = JSON.parse(`{"__proto__": {"isAdmin": true, "note": ${JSON.stringify(secret)}}, "s": ${JSON.stringify(secret)}}`) as Record<string, unknown>;
    const out = redactor.value({ rows: [row] }).rows[0]!;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 's']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')).toEqual({
      value: { isAdmin: true, note: '[redacted]' },
      writable: true,
      enumerable: true,
      configurable: true,
    });
    // Nothing of the answer's data is inherited: a consumer's `row.isAdmin` reads nothing.
    expect(out.isAdmin).toBeUndefined();
    expect(out.s).toBe('[redacted]');
    expectNoForm(out, secret);
  });
});
