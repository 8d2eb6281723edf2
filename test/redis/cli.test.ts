import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { cli } from '../cli/run-cli.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
let sandbox: Sandbox;
beforeAll(async () => {
  server = await startRedisServer();
  sandbox = await startSandbox({ servicePorts: false });
});
afterAll(async () => {
  await sandbox?.close();
  await server?.stop();
});

const send = (extra: string[]) =>
  cli([
    'run',
    'loops_send_event',
    '--param',
    `apiKey=${sandbox.credentials.loops.apiKey}`,
    '--param',
    'eventName=cli_redis',
    '--param',
    'email=cli@example.com',
    '--endpoint',
    `loops=${sandbox.urls.loops}`,
    ...extra,
  ]);

it('flowblocks run --redis paces the call in Redis and exits (the connection closed)', async () => {
  const out = await send(['--redis', server.url]);
  expect(out.code).toBe(0);
  expect(out.stderr).toBe('');
  const reader = new Redis(server.url, { maxRetriesPerRequest: 1 });
  try {
    const keys = await reader.keys('flowblocks:pace:loops:*');
    expect(keys.some((k) => k.endsWith(':used'))).toBe(true);
    // The command closed its connection: the reader is the only client left.
    const clients = String(await reader.call('CLIENT', 'LIST')).trim().split('\n');
    expect(clients).toHaveLength(1);
  } finally {
    reader.disconnect();
  }
});

it('$FLOWBLOCKS_REDIS_URL naming a Redis that is not there: the call is paced in the process, one line says so', async () => {
  process.env.FLOWBLOCKS_REDIS_URL = 'redis://:pw-canary-99@127.0.0.1:1';
  try {
    const started = Date.now();
    const out = await send([]);
    expect(out.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(out.stderr).toMatch(/^flowblocks: Redis at redis:\/\/127\.0\.0\.1:1 does not answer \(.*\); pacing falls back to this process alone until it does\n$/);
    expect(out.stderr).not.toContain('pw-canary-99');
  } finally {
    delete process.env.FLOWBLOCKS_REDIS_URL;
  }
});

it('flowblocks mcp --http --redis paces every tenant\'s calls in Redis, and closes its connection on SIGTERM', async () => {
  const root = resolve(import.meta.dirname, '..', '..');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src/satellites/cli/index.ts'), 'mcp', '--http', '--port', '0', '--services', 'loops', '--allow-base-url', sandbox.urls.loops, '--redis', server.url],
    { cwd: root, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  const reader = new Redis(server.url, { maxRetriesPerRequest: 1 });
  try {
    await expect.poll(() => stdout.includes('}'), { timeout: 20_000 }).toBe(true);
    const { url } = JSON.parse(stdout) as { url: string };
    // A tenant's own key, in a header: paced in Redis under its digest, as the fleet's calls are.
    const client = new Client({ name: 'redis-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'X-Loops-Api-Key': sandbox.credentials.loops.apiKey, 'X-Loops-Base-Url': sandbox.urls.loops } } }));
    const result = await client.callTool({ name: 'loops_test_api_key', arguments: {} });
    expect(result.isError).toBeFalsy();
    await client.close();
    const keys = await reader.keys('flowblocks:pace:loops:*');
    expect(keys.some((k) => k.endsWith(':used'))).toBe(true);
    expect(keys.join(' ')).not.toContain(sandbox.credentials.loops.apiKey);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
    // The server closed its Redis connection: the reader is the only client left.
    expect(String(await reader.call('CLIENT', 'LIST')).trim().split('\n')).toHaveLength(1);
  } finally {
    child.kill('SIGKILL');
    reader.disconnect();
  }
});
