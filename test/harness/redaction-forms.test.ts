import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/harness/execute.js';
import { Redactor } from '../../src/harness/redact.js';
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
    // Only plain objects and arrays are walked: other objects are kept as they are.
    const when = new Date(0);
    const copy = redactor.value({ s: secret, when });
    expect(copy.when).toBe(when);
    // Four characters are a secret; three are too short to mask without masking everything.
    expect(new Redactor(['abcd']).text('xabcdx')).toBe('x[redacted]x');
    expect(new Redactor(['abc']).active).toBe(false);
  });
});
