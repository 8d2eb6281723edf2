/**
 * 5. A fleet on one Loops key: worker processes sending events to the sandbox's
 * Loops (10 requests per second per key, fixed windows), once through the shared Redis pacer
 * and once with a pacer per process. Needs redis-server (the test helper starts one on a free
 * loopback port and fails with the install command when it is missing).
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/src/satellites/sandbox/index.js';
import { startRedisServer } from '../test/redis/redis-server.js';

export interface FleetRun {
  ok: number;
  failed: number;
  responses: number;
  status429: number;
  seconds: number;
  sendsPerSec: number;
}

interface WorkerReport {
  ok: number;
  failed: number;
  responses: number;
  status429: number;
  startedAt: number;
  endedAt: number;
}

async function runFleet(loops: string, apiKey: string, workers: number, sends: number, concurrency: number, tag: string, redisUrl?: string): Promise<FleetRun> {
  const script = fileURLToPath(new URL('./fleet-worker.mjs', import.meta.url));
  const children: ChildProcess[] = [];
  for (let w = 0; w < workers; w++) {
    const args = [loops, String(sends), String(concurrency), tag, ...(redisUrl ? [redisUrl] : [])];
    children.push(fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, FLEET_LOOPS_API_KEY: apiKey } }));
  }
  // Every worker loaded and connected before any sends: the start is the same for all.
  await Promise.all(children.map((child) => once(child, 'message')));
  const reports = children.map((child) => once(child, 'message').then(([m]) => m as WorkerReport));
  for (const child of children) child.send('go');
  const done = await Promise.all(reports);
  await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  const seconds = (Math.max(...done.map((r) => r.endedAt)) - Math.min(...done.map((r) => r.startedAt))) / 1000;
  const sum = (pick: (r: WorkerReport) => number) => done.reduce((n, r) => n + pick(r), 0);
  const ok = sum((r) => r.ok);
  return { ok, failed: sum((r) => r.failed), responses: sum((r) => r.responses), status429: sum((r) => r.status429), seconds, sendsPerSec: ok / seconds };
}

/** Fails before any suite runs, not after minutes of them, when redis-server is missing. */
export function requireRedisServer(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error('the fleet suite needs redis-server; install it with: apt-get update && apt-get install -y redis-server');
  }
}

export async function fleetBench({ workers = 4, sends = 200, concurrency = 10 } = {}): Promise<{ workers: number; sends: number; shared: FleetRun; alone: FleetRun }> {
  const redis = await startRedisServer();
  const sandbox = await startSandbox({ servicePorts: false });
  try {
    const { loops } = sandbox.urls;
    const apiKey = sandbox.credentials.loops.apiKey;
    const shared = await runFleet(loops, apiKey, workers, sends, concurrency, 'fleet_shared', redis.url);
    // A fresh window of the sandbox's limit for the second run.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const alone = await runFleet(loops, apiKey, workers, sends, concurrency, 'fleet_alone');
    return { workers, sends, shared, alone };
  } finally {
    await sandbox.close();
    await redis.stop();
  }
}

// `npx tsx bench/fleet.ts` (after `npm run build`) runs this suite alone and prints its figures.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quick = process.env.BENCH_QUICK === '1';
  process.stdout.write(`${JSON.stringify(await fleetBench(quick ? { sends: 25 } : {}), null, 2)}\n`);
}
