import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('flowblocks mcp --http', () => {
  it('refuses HTTP flags without --http, a short token, and prints a client config without secrets', async () => {
    const stray = await cli(['mcp', '--port', '9000']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--port goes with --http');

    let printed;
    const env = { ...process.env };
    try {
      process.env.FLOWBLOCKS_MCP_TOKEN = 'a-server-token-of-32-characters!';
      process.env.TINYBIRD_TOKEN = 'p.server-side-token';
      printed = await cli(['mcp', '--http', '--port', '9001', '--print-config']);
      expect(printed.code).toBe(0);
      process.env.FLOWBLOCKS_MCP_TOKEN = 'short';
      const short = await cli(['mcp', '--http']);
      expect(short.code).toBe(2);
      expect(short.stderr).toContain('$FLOWBLOCKS_MCP_TOKEN must be at least 16 characters');
    } finally {
      process.env = env;
    }
    // Tinybird is configured on the server; the others' credentials come from the client's variables.
    expect(JSON.parse(printed.stdout)).toEqual({
      url: 'http://127.0.0.1:9001/mcp',
      headers: {
        Authorization: 'Bearer {{FLOWBLOCKS_MCP_TOKEN}}',
        'X-Loops-Api-Key': '{{LOOPS_API_KEY}}',
        'X-Workflow-Api-Key': '{{WORKFLOW_API_KEY}}',
        'X-Workflow-Base-Url': '{{WORKFLOW_BASE_URL}}',
      },
    });
    expect(printed.stdout).not.toContain('a-server-token');
    expect(printed.stdout).not.toContain('p.server-side-token');
  }, 20_000);

  it('will not serve a network without a token', async () => {
    const env = { ...process.env };
    let refused;
    try {
      delete process.env.FLOWBLOCKS_MCP_TOKEN;
      refused = await cli(['mcp', '--http', '--host', '0.0.0.0', '--port', '0']);
    } finally {
      process.env = env;
    }
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('without FLOWBLOCKS_MCP_TOKEN the server binds only a loopback address');
  }, 20_000);

  it('serves over HTTP as a process, and on SIGTERM lets the call in flight answer before it exits', async () => {
    // A stand-in Tinybird that holds the query until the test answers it.
    let held: ServerResponse | undefined;
    const tinybird = createServer((_req, res) => void (held = res));
    const tinybirdAddress = await listenOnLoopback(tinybird);
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/satellites/cli/index.ts'), 'mcp', '--http', '--port', '0', '--services', 'tinybird'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', TINYBIRD_TOKEN: 'p.env-token-1234', TINYBIRD_BASE_URL: tinybirdAddress.origin },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'cli-http-test', version: '1.0.0' });
    try {
      await expect.poll(() => stdout.includes('}'), { timeout: 15_000 }).toBe(true);
      const config = JSON.parse(stdout) as { url: string; headers: Record<string, string> };
      expect(config.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(stderr).toContain(`over Streamable HTTP at ${config.url}`);
      await client.connect(new StreamableHTTPClientTransport(new URL(config.url)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('tinybird_query');
      const call = client.callTool({ name: 'tinybird_query', arguments: { query: 'SELECT 1 AS n FORMAT JSON' } });
      await expect.poll(() => held !== undefined, { timeout: 15_000 }).toBe(true);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await expect.poll(() => stderr, { timeout: 15_000 }).toContain('request(s) in flight finish first');
      held!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ meta: [{ name: 'n', type: 'UInt8' }], data: [{ n: 1 }], rows: 1, statistics: { elapsed: 0.001, rows_read: 1, bytes_read: 1 } }));
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ output: { data: [{ n: 1 }] } });
      expect((await exited)[0]).toBe(0);
      expect(stdout + stderr).not.toContain('p.env-token-1234');
    } finally {
      child.kill('SIGKILL');
      tinybird.closeAllConnections();
      tinybird.close();
    }
  }, 30_000);
});
