import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { runTool } from '../../src/harness/run/execute.js';
import { Redactor, stripUrlCredentials } from '../../src/harness/mask/redact.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';
import { echoTool, ORIGIN, readParts, readTool, SECRET, validParams } from './fixtures.js';

describe('secrets never come back', () => {
  it('masks a secret the service echoes in an error message', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 403, body: `Invalid token ${SECRET}\n` });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result.success || result.error.message).toBe('Invalid token [redacted]');
  });

  it('masks a secret in outputs, keys included, and in its URL-encoded form', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', {
      status: 200,
      body: { echoed: SECRET, nested: [{ url: `https://x/?t=${encodeURIComponent(SECRET)}` }], [SECRET]: 1 },
    });
    const result = await runTool(echoTool, validParams, { dispatcher: svc.agent });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result).toMatchObject({ success: true, output: { echoed: '[redacted]', nested: [{ url: 'https://x/?t=[redacted]' }] } });
  });

  it('masks a secret in a wire-checked body, small or large: only a body whose bytes were clean is trusted', async () => {
    // The wire check hands back a copy of the body; that copy is trusted only when the raw bytes held no secret.
    const wired = defineTool({
      ...readParts,
      id: 'example_wired_echo',
      wire: z.looseObject({ rows: z.array(z.looseObject({ note: z.string() })) }),
      output: z.looseObject({}),
      response: (res) => res.body as Record<string, unknown>,
    });
    const filler = Array.from({ length: 600 }, (_, i) => ({ note: `row ${i} of a large answer` }));
    for (const rows of [[{ note: `echo ${SECRET}` }], [...filler, { note: `echo ${SECRET}` }]]) {
      const svc = mockService(ORIGIN);
      svc.on('GET', '/items', { status: 200, body: { rows } });
      const result = await runTool(wired, validParams, { dispatcher: svc.agent });
      expect(result.success).toBe(true);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(JSON.stringify(result)).toContain(`echo [redacted]`);
    }
  });

  it('masks secrets in logged events and in a secret that fails validation', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const events: HarnessEvent[] = [];
    const withSecretInUrl = { ...validParams, base_url: `${ORIGIN}/${SECRET}` };
    svc.on('GET', `/${SECRET}/items`, { status: 200, body: { ok: true } });
    await runTool(readTool, withSecretInUrl, { dispatcher: svc.agent, logger: (e) => events.push(e) });
    expect(events.map((e) => e.type)).toEqual(['request', 'response']);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    const bad = await runTool(readTool, { ...validParams, name: SECRET, apiKey: SECRET, count: -1 });
    expect(JSON.stringify(bad)).not.toContain(SECRET);
  });

  it('leaves short values alone and strips URL credentials', () => {
    const redactor = new Redactor(['abc', undefined, 42]);
    expect(redactor.active).toBe(false);
    expect(redactor.value({ a: 'abc' })).toEqual({ a: 'abc' });
    expect(new Redactor(['secret-one', 'secret-one-longer']).text('x secret-one-longer y')).toBe('x [redacted] y');
    expect(stripUrlCredentials('https://user:pass@host/path')).toBe('https://host/path');
  });
});

describe('the Redactor and what it trusts', () => {
  it('hands back the very value when nothing is to be masked, trusted bodies unscanned (no copy)', () => {
    const r = new Redactor([SECRET]);
    const clean = { rows: [{ a: 'x' }] };
    expect(r.trustIfClean(Buffer.from(JSON.stringify(clean)), clean)).toBe(true);
    const wrapper = { output: clean, meta: { attempts: 1 } };
    expect(r.value(wrapper)).toBe(wrapper);
    // What is trusted is not looked into: a caller vouched for it (a body whose bytes held no secret).
    const vouched = { note: 'vouched' };
    r.trust(vouched);
    (vouched as { note: string }).note = SECRET;
    const around = { output: vouched };
    expect(r.value(around)).toBe(around);
    // A copy is made where a secret is, and trusted objects inside it are kept, not copied.
    const masked = r.value({ echoed: SECRET, body: clean });
    expect(masked).toEqual({ echoed: '[redacted]', body: clean });
    expect(masked.body).toBe(clean);
  });

  it('trusts only an object body whose bytes hold no secret', () => {
    const r = new Redactor([SECRET]);
    expect(r.trustIfClean(Buffer.from('"plain text"'), 'plain text')).toBe(false);
    const dirty = { note: SECRET };
    expect(r.trustIfClean(Buffer.from(JSON.stringify(dirty)), dirty)).toBe(false);
    expect(r.isTrusted(dirty)).toBe(false);
    expect(r.isTrusted('text')).toBe(false);
  });

  it('trusts a body and its first 64 fields, not an array\'s items', () => {
    const r = new Redactor([SECRET]);
    const body = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, { v: i }])) as Record<string, object>;
    r.trust(body);
    expect([r.isTrusted(body), r.isTrusted(body.k0), r.isTrusted(body.k63), r.isTrusted(body.k64)]).toEqual([true, true, true, false]);
    const rows = [{ a: 1 }];
    r.trust(rows);
    expect([r.isTrusted(rows), r.isTrusted(rows[0])]).toEqual([true, false]);
  });

  it('keeps every other kind of value as it is while masking around it', () => {
    const r = new Redactor([SECRET]);
    const date = new Date(0);
    const value = { s: SECRET, n: 5, z: null, u: undefined, b: false, list: [null, 7, undefined], date };
    const out = r.value(value);
    expect(out).toEqual({ s: '[redacted]', n: 5, z: null, u: undefined, b: false, list: [null, 7, undefined], date });
    expect(out.date).toBe(date);
  });
});
