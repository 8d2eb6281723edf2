import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Pacer } from '../../src/harness/pace/pacer.js';
import type { HarnessEvent, PacerLike } from '../../src/harness/types.js';
import { executeTool } from '../../src/index.js';
import { createRedisPacer } from '../../src/redis/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const CANARY = 'loops-canary-key-3c9e51d07b';

let server: RedisServer;
let sandbox: Sandbox;
beforeAll(async () => {
  server = await startRedisServer();
  sandbox = await startSandbox({ servicePorts: false, loops: { apiKeys: [CANARY], requestsPerSecond: 10 } });
});
afterAll(async () => {
  await sandbox?.close();
  await server?.stop();
});

/** `perWorker` Loops events sent by each pacer, 5 at a time each, through `executeTool`; the statuses the sandbox answered. */
async function sendAll(pacers: PacerLike[], perWorker: number, tag: string) {
  const statuses: number[] = [];
  const logger = (event: HarnessEvent) => {
    if (event.type === 'response') statuses.push(event.status);
  };
  const results = await Promise.all(
    pacers.flatMap((pacer, w) => {
      let next = 0;
      return Array.from({ length: 5 }, async () => {
        const out = [];
        while (next < perWorker) {
          const i = next++;
          out.push(
            await executeTool(
              'loops_send_event',
              { apiKey: CANARY, eventName: tag, email: `w${w}-${i}@example.com` },
              { pacer, endpoints: { loops: sandbox.urls.loops }, logger },
            ),
          );
        }
        return out;
      });
    }),
  );
  return { results: results.flat(), statuses };
}

it('keeps four workers on one key under the sandbox Loops limit through executeTool: no 429, at the pace of the limit', async () => {
  const fleet = await Promise.all([1, 2, 3, 4].map(() => createRedisPacer({ url: server.url, logger: () => {} })));
  try {
    const started = Date.now();
    const { results, statuses } = await sendAll(fleet, 10, 'fleet_shared');
    const seconds = (Date.now() - started) / 1000;
    expect(results.every((r) => r.success)).toBe(true);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect(statuses).toHaveLength(40);
    // 40 sends at 10 per second: the first ten at once, then one window per ten.
    expect(40 / seconds).toBeGreaterThan(7);
    const events = (await (await fetch(`${sandbox.urls.loops.replace(/\/api\/v1$/, '')}/_sandbox/events`)).json()) as { events: { eventName: string }[] };
    expect(events.events.filter((e) => e.eventName === 'fleet_shared')).toHaveLength(40);
  } finally {
    await Promise.all(fleet.map((p) => p.close()));
  }
});

it('(the same run with a pacer per process meets 429s)', async () => {
  // The window of the sandbox's fixed-window limit must be fresh: wait out the last one.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const { results, statuses } = await sendAll([new Pacer(), new Pacer(), new Pacer(), new Pacer()], 10, 'fleet_alone');
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  expect(results.length).toBe(40);
});

it('writes nothing of the credential to Redis: no key, field or member holds it', async () => {
  const pacer = await createRedisPacer({ url: server.url, logger: () => {} });
  const result = await executeTool('loops_send_event', { apiKey: CANARY, eventName: 'canary', email: 'c@example.com' }, { pacer, endpoints: { loops: sandbox.urls.loops } });
  expect(result.success).toBe(true);
  await pacer.close();
  const reader = new Redis(server.url, { maxRetriesPerRequest: 1 });
  try {
    const keys = await reader.keys('*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith('flowblocks:pace:loops:{'))).toBe(true);
    const everything: string[] = [...keys];
    for (const key of keys) {
      const type = await reader.type(key);
      if (type === 'hash') everything.push(...Object.entries(await reader.hgetall(key)).flat());
      if (type === 'zset') everything.push(...(await reader.zrange(key, 0, -1, 'WITHSCORES')));
    }
    const text = everything.join('\n');
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain(CANARY.slice(0, 12));
  } finally {
    reader.disconnect();
  }
});
