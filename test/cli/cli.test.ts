import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const TOKEN = 'p.cli-secret-token';

describe('flowblocks CLI', () => {
  const requests: { url?: string; auth?: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push({ url: req.url, auth: req.headers.authorization, body });
      if (req.url?.startsWith('/v0/sql')) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ meta: [], data: [{ one: 1 }], rows: 1, statistics: { elapsed: 0, rows_read: 1, bytes_read: 1 } }));
      } else {
        res.statusCode = 403;
        res.setHeader('content-type', 'text/plain');
        res.end(`Invalid token ${TOKEN}\n`);
      }
    });
  });
  let base = '';
  beforeAll(async () => {
    const serverAddress = await listenOnLoopback(server);
    base = serverAddress.origin;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('prints usage, and 2 for a bad command or flag', async () => {
    expect((await cli(['--help'])).stdout).toContain('flowblocks run <tool>');
    expect(await cli([])).toMatchObject({ code: 2 });
    expect(await cli(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command frobnicate') });
    expect(await cli(['list', '--bogus'])).toMatchObject({ code: 2, stderr: expect.stringContaining('bogus') });
  });

  it('lists tools and blocks', async () => {
    const list = await cli(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^tinybird_query\s+readOnly,idempotent\s+Run SQL query$/m);
    expect((await cli(['blocks'])).stdout).toMatch(/^tinybird\s+Ingest events/m);
  });

  it('prints schemas and manifests', async () => {
    const llm = JSON.parse((await cli(['schema', 'tinybird_query', '--llm'])).stdout);
    expect(Object.keys(llm.properties)).toEqual(['query', 'pipeline']);
    const full = JSON.parse((await cli(['schema', 'tinybird_query'])).stdout);
    expect(Object.keys(full.properties)).toContain('token');
    const manifest = await cli(['manifest', 'tinybird']);
    expect(manifest.stdout).toBe(readFileSync(new URL('../../blocks/tinybird.json', import.meta.url), 'utf8'));
    expect(await cli(['schema', 'nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('no tool with id nope') });
    expect(await cli(['manifest', 'nope'])).toMatchObject({ code: 2 });
  });

  it('runs a tool with params from a file, flags and stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowblocks-cli-'));
    const file = join(dir, 'params.json');
    writeFileSync(file, JSON.stringify({ base_url: base, token: TOKEN }));
    const out = await cli(['run', 'tinybird_query', '--params-file', file, '--param', 'query=SELECT 1 AS one', '--timeout', '5000']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ success: true, output: { data: [{ one: 1 }], rows: 1 } });
    expect(requests.at(-1)).toMatchObject({ url: '/v0/sql', auth: `Bearer ${TOKEN}` });
    const piped = await cli(['run', 'tinybird_query', '--params-file', '-', '--no-retry'], JSON.stringify({ base_url: base, token: TOKEN, query: 'SELECT 1' }));
    expect(piped.code).toBe(0);
  });

  it('exits 1 with the redacted failure on stderr', async () => {
    const out = await cli(['run', 'tinybird_events', '--params', JSON.stringify({ base_url: base, token: TOKEN, datasource: 'e', data: '{"a":1}' })]);
    expect(out.code).toBe(1);
    expect(out.stderr).not.toContain(TOKEN);
    expect(JSON.parse(out.stderr)).toMatchObject({ success: false, error: { code: 'forbidden', message: 'Invalid token [redacted]' } });
  });

  it('refuses malformed params and endpoints with the flag named', async () => {
    expect(await cli(['run', 'tinybird_query', '--params', '{nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--params is not valid JSON') });
    expect(await cli(['run', 'tinybird_query', '--params', '[1]'])).toMatchObject({ code: 2, stderr: expect.stringContaining('must be a JSON object') });
    expect(await cli(['run', 'tinybird_query', '--param', 'novalue'])).toMatchObject({ code: 2, stderr: expect.stringContaining('key=value') });
    expect(await cli(['run', 'tinybird_query', '--endpoint', 'x'])).toMatchObject({ code: 2, stderr: expect.stringContaining('service=url') });
    expect(await cli(['run', 'tinybird_query', '--timeout', '-1'])).toMatchObject({ code: 2 });
    expect(await cli(['run'])).toMatchObject({ code: 2 });
  });

  it('reports invalid params as a tool failure naming the field', async () => {
    const out = await cli(['run', 'tinybird_query', '--params', JSON.stringify({ base_url: base, token: TOKEN }), '--endpoint', 'loops=http://127.0.0.1:1']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stderr)).toMatchObject({ error: { code: 'invalid_params', issues: [{ path: 'query' }] } });
  });
});
