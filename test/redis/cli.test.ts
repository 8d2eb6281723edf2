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
