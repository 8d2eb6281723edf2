/** `flowblocks monitor --once` on the Redis store, as a cron job would run it, with a password in the URL. */
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { monitorKeys } from '../../src/satellites/notifications/redis/keys.js';
import { exited, platform, ROOT, writeConfig } from './monitor-platform.js';
import { freePort, startRedisServer, type RedisServer } from './redis-server.js';

const PASSWORD = 'redis-pw-canary-0c4e';
let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
  const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.config('SET', 'requirepass', PASSWORD);
  client.disconnect();
});
afterAll(() => server.stop());

function runOnce(config: string, env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/satellites/cli/index.ts', 'monitor', '--config', config, '--once', ...args], {
    cwd: ROOT,
    env: { ...process.env, MONITOR_API_KEY: 'k', HOOK_SECRET: 's', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
    errors += c.toString();
  });
  return { child, output: () => output, errors: () => errors };
}

it('--once reads what is new, sends it through BullMQ and exits; the password never shows', async () => {
  const p = await platform();
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-once-redis-'));
  try {
    p.r.addLogs(5);
    const config = writeConfig(dir, p.r);
    const url = `redis://:${PASSWORD}@127.0.0.1:${server.port}`;
    const first = runOnce(config, { FLOWBLOCKS_MONITOR_STORE: url });
    expect(await exited(first.child)).toBe(0);
    expect(p.r.acked.size).toBe(5);
    expect(first.output()).toContain(`state in redis://127.0.0.1:${server.port} (lease 15 s)`);
    expect(first.output()).toMatch(/done: 0 delivery\(ies\) pending/);

    // The next run goes on from the watermark in Redis (the flag beats the variable).
    p.r.addLogs(3);
    const second = runOnce(config, { FLOWBLOCKS_MONITOR_STORE: 'redis://127.0.0.1:1' }, ['--store', url]);
    expect(await exited(second.child)).toBe(0);
    expect(p.r.acked.size).toBe(8);
    expect(p.r.requests()).toBe(8);
    expect(second.output()).toMatch(/3 new execution\(s\)/);

    // While another monitor holds the lease, --once refuses at once rather than wait.
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    await client.set(monitorKeys(p.r.base, 'ws-1').lease, 'someone-else', 'PX', 60_000);
    client.disconnect();
    const held = runOnce(config, {}, ['--store', url]);
    expect(await exited(held.child)).toBe(1);
    expect(held.output()).toContain('another monitor holds the lease of this workspace (--once does not wait for it)');

    const bad = runOnce(config, {}, ['--store', `http://user:${PASSWORD}@h/`]);
    expect(await exited(bad.child)).toBe(2);
    expect(bad.output()).toMatch(/must be a redis:\/\/ or rediss:\/\/ URL/);
    for (const output of [first.output(), second.output(), held.output(), bad.output()]) expect(output).not.toContain(PASSWORD);
  } finally {
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

it('--once gives up on an unreachable Redis after one lease time: exit 1, naming it, never the password', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-once-redis-down-'));
  try {
    const port = await freePort(); // nothing listens there
    // Never reached: the run ends before any poll.
    const config = writeConfig(dir, { base: 'http://127.0.0.1:9', start: Date.now() }, { leaseSeconds: 2 });
    const started = performance.now();
    const run = runOnce(config, {}, ['--store', `redis://:${PASSWORD}@127.0.0.1:${port}`]);
    // Far above the bound (2 s and the process's start), far below the old "forever".
    const code = await Promise.race([exited(run.child), new Promise((resolve) => setTimeout(() => resolve('still running after 30 s'), 30_000))]);
    const ms = performance.now() - started;
    run.child.kill('SIGKILL');
    expect(code).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(2_000);
    const errors = run.output().split('\n').filter((l) => l.includes('Redis unreachable at'));
    expect(errors).toEqual([`Redis unreachable at redis://127.0.0.1:${port}: gave up after 2 s, one lease time (--once does not wait longer; last error: connect ECONNREFUSED 127.0.0.1:${port})`]);
    expect(run.output()).not.toContain(PASSWORD);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

it('--once with Redis stopped (SIGSTOP) while it hands a delivery to BullMQ: exit 1, and stderr holds our one line only', async () => {
  const p = await platform();
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-once-redis-stopped-'));
  const url = `redis://:${PASSWORD}@127.0.0.1:${server.port}`;
  const keys = monitorKeys(p.r.base, 'ws-1');
  const jobKey = `${keys.bullPrefix}:${keys.queueName}:dlv_`;
  const watcher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await watcher.connect();
  const feed = await watcher.monitor();
  let paused = false;
  // Redis stops answering (not refusing: the connections stay open) as soon as BullMQ's
  // addBulk of the run's delivery reaches it, so the hand-over is in flight when it stops.
  feed.on('monitor', (_time: string, args: string[]) => {
    if (paused || !args.some((a) => a.startsWith(jobKey))) return;
    paused = true;
    server.pause();
  });
  try {
    p.r.addLogs(1);
    const config = writeConfig(dir, p.r, { leaseSeconds: 2 });
    const run = runOnce(config, {}, ['--store', url]);
    // Redis stays stopped until the run has ended: its clients are closed (QUIT given up after 1 s, then the socket dropped).
    const code = await Promise.race([exited(run.child), new Promise((resolve) => setTimeout(() => resolve('still running after 30 s'), 30_000))]);
    run.child.kill('SIGKILL');
    expect(paused).toBe(true);
    expect(code).toBe(1);
    // Our line, and nothing after it: no unhandled rejection, no stack.
    expect(run.errors()).toMatch(/^(monitor failed: )?the lease was lost (during the run; the next run goes on from what was saved|before the state could be written)\n$/);
    expect(run.output()).toContain('lease lost: not renewed within the lease time (2 s)');
    expect(run.output()).not.toContain(PASSWORD);
  } finally {
    server.resume();
    feed.disconnect();
    watcher.disconnect();
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
