import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/harness/execute.js';
import { Redactor, stripUrlCredentials } from '../../src/harness/redact.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';
import { echoTool, ORIGIN, readTool, SECRET, validParams } from './fixtures.js';

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
