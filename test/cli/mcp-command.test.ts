import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/satellites/cli/main.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s), stdin: async () => '' } };
}

/** `flowblocks mcp …` as a child process over stdio, the way a desktop agent starts it. */
async function startMcp(args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join(ROOT, 'src/satellites/cli/index.ts'), 'mcp', ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name: 'cli-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('flowblocks mcp', () => {
  it('refuses bad options with usage and exit code 2', async () => {
    const bad = io();
    expect(await main(['mcp', '--services', 'tinybird,nope'], bad.io)).toBe(2);
    expect(bad.out.stderr).toContain('unknown service nope (known: tinybird, loops, workflow)');
    const zero = io();
    expect(await main(['mcp', '--max-items', '0'], zero.io)).toBe(2);
    expect(zero.out.stderr).toContain('--max-items takes a whole number of at least 1');
    const missing = io();
    expect(await main(['mcp', '--config', join(tmpdir(), 'no-such-flowblocks.json')], missing.io)).toBe(2);
    expect(missing.out.stderr).toContain('cannot read the config file');
    const help = io();
    expect(await main(['mcp', '--help'], help.io)).toBe(0);
    expect(help.out.stdout).toContain('TINYBIRD_TOKEN');
  });

  it('serves the chosen tools over stdio, credentials from the environment', async () => {
    const { client, stderr } = await startMcp(['--services', 'tinybird,workflow', '--read-only'], {
      TINYBIRD_TOKEN: 'p.env-token',
      TINYBIRD_BASE_URL: 'http://127.0.0.1:9',
    });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'tinybird_query', 'tinybird_query_pipe', 'tinybird_get_job',
        'tinybird_list_datasources', 'tinybird_get_datasource', 'tinybird_list_pipes', 'tinybird_get_pipe', 'tinybird_list_jobs',
        'workflow_get_job', 'workflow_list_logs', 'workflow_get_log', 'workflow_get_execution',
      ]);
      expect(JSON.stringify(tools)).not.toContain('p.env-token');
      expect(stderr()).toContain('workflow lacks apiKey ($WORKFLOW_API_KEY) and base_url ($WORKFLOW_BASE_URL)');
      expect(stderr()).not.toContain('tinybird lacks');
    } finally {
      await client.close();
    }
  }, 20_000);

  it('the one-liner of docs/agents.md: only TINYBIRD_TOKEN set, calls go to the default base URL', async () => {
    const { client, stderr } = await startMcp(['--services', 'tinybird', '--read-only'], { TINYBIRD_TOKEN: 'p.env-token' });
    try {
      const result = await client.callTool({ name: 'tinybird_query', arguments: { query: 'SELECT 1' } });
      expect(JSON.stringify(result)).not.toContain('not configured');
      expect(stderr()).not.toContain('lacks');
    } finally {
      await client.close();
    }
  }, 20_000);

  it('--max-result-bytes bounds what a model gets, the text and the structured content together', async () => {
    const big = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: 'x'.repeat(100_000) })));
    const { origin: base } = await listenOnLoopback(big);
    const { client } = await startMcp(['--services', 'workflow', '--max-result-bytes', '4000'], { WORKFLOW_API_KEY: 'wf-key', WORKFLOW_BASE_URL: base });
    try {
      const result = (await client.callTool({ name: 'workflow_api_call', arguments: { path: '/big' } })) as { content: { text: string }[]; structuredContent: Record<string, unknown> };
      const bytes = Buffer.byteLength(result.content[0]!.text) + Buffer.byteLength(JSON.stringify(result.structuredContent));
      expect(bytes).toBeLessThanOrEqual(4000);
      expect(result.structuredContent).toMatchObject({ truncated: { unit: 'bytes', total: 100_033 } });
    } finally {
      await client.close();
      big.close();
    }
  }, 20_000);

  it('reads a config file, with the environment winning', async () => {
    // A stand-in Loops on 127.0.0.1 that records which key each call carried.
    const keys: string[] = [];
    const loops = createServer((req, res) => {
      keys.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, teamName: 'team' }));
    });
    const loopsAddress = await listenOnLoopback(loops);
    const origin = `${loopsAddress.origin}/api/v1`;
    const dir = mkdtempSync(join(tmpdir(), 'flowblocks-mcp-'));
    const file = join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ services: ['loops'], settings: { loops: { apiKey: 'from-file', base_url: origin } } }));
    const { client } = await startMcp(['--config', file], { LOOPS_API_KEY: 'from-env' });
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(18);
      expect(tools.every((tool) => tool.name.startsWith('loops_'))).toBe(true);
      const result = await client.callTool({ name: 'loops_test_api_key', arguments: { apiKey: 'from-model' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ output: { teamName: 'team' } });
      expect(keys).toEqual(['Bearer from-env']);
    } finally {
      await client.close();
      loops.close();
    }
  }, 20_000);
});
