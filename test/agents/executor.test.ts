import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createToolExecutor, settingsFromEnv } from '../../src/hosts/agents/index.js';
import { scrubSecrets } from '../../src/hosts/agents/scrub.js';
import { mockService } from '../helpers/mock-service.js';

const TB = 'https://api.tinybird.co';
const TOKEN = 'p.tinybird-secret-token';
const jsonBody = (rows: unknown[]) => ({ data: rows, meta: [{ name: 'n', type: 'UInt64' }], rows: rows.length, statistics: { elapsed: 0, rows_read: 1, bytes_read: 1 } });

describe('createToolExecutor', () => {
  it('takes arguments as JSON text (OpenAI sends them so) and as objects', async () => {
    const svc = mockService(TB);
    svc.on('POST', '/v0/sql', { status: 200, body: jsonBody([{ n: 1 }]) }, { status: 200, body: jsonBody([{ n: 2 }]) });
    const executor = createToolExecutor({ settings: { tinybird: { base_url: TB, token: TOKEN } }, execute: { dispatcher: svc.agent } });
    expect(await executor.execute('tinybird_query', '{"query":"SELECT 1 FORMAT JSON"}')).toMatchObject({ ok: true, output: { data: [{ n: 1 }] } });
    expect(await executor.execute('tinybird_query', { query: 'SELECT 2 FORMAT JSON' })).toMatchObject({ ok: true, output: { data: [{ n: 2 }] } });
    expect(svc.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  it('gives Tinybird its default base URL (as flowblocks ingest does) and calls a set but invalid base URL invalid, not unconfigured', async () => {
    const svc = mockService(TB);
    svc.on('POST', '/v0/sql', { status: 200, body: jsonBody([{ n: 1 }]) });
    const onlyToken = createToolExecutor({ settings: { tinybird: { token: TOKEN } }, execute: { dispatcher: svc.agent } });
    expect(await onlyToken.execute('tinybird_query', { query: 'SELECT 1 FORMAT JSON' })).toMatchObject({ ok: true });
    const invalid = createToolExecutor({ settings: { tinybird: { token: TOKEN, base_url: 'notaurl' } }, execute: { dispatcher: svc.agent } });
    const result = await invalid.execute('tinybird_query', { query: 'SELECT 1' });
    expect(result.ok).toBe(false);
    const message = (result as { error: { message: string } }).error.message;
    expect(message).toMatch(/base_url: invalid \(.+\): the user must fix tinybird base_url/);
    expect(message).not.toContain('not configured');
    const none = createToolExecutor({ settings: {} });
    expect(JSON.stringify(await none.execute('tinybird_query', { query: 'SELECT 1' }))).toContain('token: not configured');
  });

  it('refuses text that is not a JSON object, and tools it does not offer', async () => {
    const executor = createToolExecutor({ readOnly: true });
    expect(await executor.execute('tinybird_query', '{query:')).toMatchObject({ ok: false, error: { code: 'invalid_params', message: 'invalid_params: arguments are not valid JSON' } });
    expect(await executor.execute('tinybird_query', [1])).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    const refused = await executor.execute('tinybird_truncate_datasource', { datasource: 'events' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
    expect(executor.tools.every((tool) => tool.annotations.readOnly)).toBe(true);
  });

  it('never hands a configured secret back, even when a service echoes it', async () => {
    const svc = mockService(TB);
    svc.on('POST', '/v0/sql', { status: 200, body: jsonBody([{ n: `token was ${TOKEN}` }]) });
    svc.on('POST', '/v0/sql', { status: 400, body: { error: `bad token ${TOKEN}` } });
    const executor = createToolExecutor({ settings: { tinybird: { base_url: TB, token: TOKEN } }, execute: { dispatcher: svc.agent, retry: false } });
    const ok = await executor.execute('tinybird_query', { query: 'SELECT 1 FORMAT JSON' });
    const failed = await executor.execute('tinybird_query', { query: 'SELECT 1 FORMAT JSON' });
    expect(ok.ok).toBe(true);
    expect(failed.ok).toBe(false);
    expect(JSON.stringify([ok, failed])).not.toContain(TOKEN);
  });

  it('takes arguments named constructor, toString, hasOwnProperty or __proto__ as arguments: a result naming the field, never a throw', async () => {
    const svc = mockService('https://workflows.example.com');
    const executor = createToolExecutor({ settings: { workflow: { base_url: 'https://workflows.example.com', apiKey: 'k' } }, execute: { dispatcher: svc.agent } });
    for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      for (const strict of [false, true]) {
        const result = await executor.execute('workflow_get_execution', JSON.parse(`{"${key}": {"polluted": true}}`), { strict });
        // The missing executionId; without the strict view, the unknown argument too (#31: a model's typo is named).
        const issues = strict ? [{ path: 'executionId' }] : [{ path: key }, { path: 'executionId' }];
        expect(result).toMatchObject({ ok: false, error: { code: 'invalid_params', issues } });
      }
    }
    expect(svc.requests).toHaveLength(0);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it('passes a service cursor it did not make to the service unchanged', async () => {
    const svc = mockService('https://app.loops.so');
    svc.on('GET', '/api/v1/transactional-emails', { status: 200, body: { pagination: { totalResults: 0, returnedResults: 0, perPage: 20, totalPages: 1, nextCursor: null, nextPage: null }, data: [] } });
    const executor = createToolExecutor({ settings: { loops: { apiKey: 'k' } }, execute: { dispatcher: svc.agent } });
    expect(await executor.execute('loops_list_transactional_emails', { cursor: 'service-cursor' })).toMatchObject({ ok: true });
    expect(svc.requests[0]!.query.cursor).toBe('service-cursor');
  });
});

describe('helpers', () => {
  it('scrubs every occurrence of a secret at any depth', () => {
    expect(scrubSecrets({ a: ['x-s3cret-x', { b: 's3cret' }], n: 1 }, ['s3cret'])).toEqual({ a: ['x-[redacted]-x', { b: '[redacted]' }], n: 1 });
  });

  it('reads settings from the environment by the tools\' param names', () => {
    expect(settingsFromEnv({ TINYBIRD_TOKEN: 't', TINYBIRD_BASE_URL: 'u', LOOPS_API_KEY: 'l', WORKFLOW_BASE_URL: '', OTHER: 'x' })).toEqual({
      tinybird: { token: 't', base_url: 'u' },
      loops: { apiKey: 'l' },
    });
  });
});

describe('optional peers', () => {
  // flowblocks/agents must load without the AI SDK or the MCP SDK installed: both only by dynamic import.
  it('never imports ai or @modelcontextprotocol/sdk statically', () => {
    const root = resolve(import.meta.dirname, '..', '..');
    const staticImport = /^\s*(?:import|export)\s(?!type\b)(?:[^'"]*?\sfrom\s)?['"]([^'"]+)['"]/gm;
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, target] of readFileSync(join(root, file), 'utf8').matchAll(staticImport)) {
        if (target!.startsWith('.')) visit(relative(root, resolve(root, dirname(file), target!)).replace(/\.js$/, '.ts'));
        else packages.add(target!);
      }
    };
    visit('src/hosts/agents/index.ts');
    expect(seen).toContain('src/hosts/agents/mcp-server.ts');
    expect([...packages].filter((name) => name === 'ai' || name.startsWith('@modelcontextprotocol/'))).toEqual([]);
  });
});
