/**
 * Two `flowblocks monitor` processes on one Redis and 1,000 executions: the active one is
 * SIGKILLed mid-delivery, the other takes over within the lease time and every execution
 * reaches the receiver under one delivery id, only the ones in flight at the kill twice.
 * Then Redis itself is killed for a few seconds while new executions arrive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dumpRedis } from './redis-dump.js';
import { exited, monitorProcess, platform, until, writeConfig } from './monitor-platform.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const EXECUTIONS = 1_000;
const LATER = 200;
const LEASE_MS = 4_000;
const CONCURRENCY = 8;
/** A reads the first pages, then its poll hangs on this offset: it dies mid-poll as well as mid-delivery. */
const POLLED_BY_A = 500;
const KILL_AFTER_ACKS = 400;
const OUTAGE_MS = 3_000;
const API_KEY = 'sk-failover-canary-5d1e';
const SECRET = 'whsec-failover-canary-77b2';

let server: RedisServer;
let p: Awaited<ReturnType<typeof platform>>;
let dir: string;
beforeAll(async () => {
  server = await startRedisServer();
});
beforeEach(async () => {
  p = await platform();
  dir = mkdtempSync(join(tmpdir(), 'flowblocks-failover-'));
});
afterEach(async () => {
  await p.close();
  rmSync(dir, { recursive: true, force: true });
  const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.flushall();
  client.disconnect();
});
afterAll(async () => {
  await server.stop();
});

/** Every acknowledged write on disk before Redis answers: a SIGKILL of Redis loses none (see docs/scaling.md). */
async function fsyncAlways(): Promise<void> {
  const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.config('SET', 'appendfsync', 'always');
  client.disconnect();
}

describe('monitor failover on Redis', () => {
  it(`SIGKILL of the active monitor mid-delivery (${EXECUTIONS} executions), then Redis down for ${OUTAGE_MS / 1000} s`, async () => {
    const { r } = p;
    await fsyncAlways();
    r.addLogs(EXECUTIONS);
    const config = writeConfig(dir, r, { leaseSeconds: LEASE_MS / 1000 });
    const env = { MONITOR_API_KEY: API_KEY, HOOK_SECRET: SECRET };
    r.holdPagesFrom = POLLED_BY_A;
    // A delivers until KILL_AFTER_ACKS are acknowledged; the next requests hang, and A dies with them in flight.
    r.hangAfter = KILL_AFTER_ACKS;
    const a = monitorProcess(config, server.url, env);
    await a.saw(/lease taken/, 20_000);
    const b = monitorProcess(config, server.url, env);
    try {
      await b.saw(/another monitor holds the lease: waiting to take over/, 20_000);
      await until(() => r.acked.size >= KILL_AFTER_ACKS && r.hung.length >= CONCURRENCY && Date.now() - r.lastRequestAt > 300, 60_000, `${KILL_AFTER_ACKS} acknowledged, ${CONCURRENCY} in flight`);
      const inFlight = r.hung.map((h) => h.id);
      a.child.kill('SIGKILL');
      await exited(a.child);
      const killedAt = Date.now();
      r.hung.splice(0).forEach((h) => h.res.destroy());
      r.hangAfter = Infinity;
      r.heldPages.splice(0).forEach((res) => res.destroy());
      r.holdPagesFrom = Infinity;

      const takenAt = await b.saw(/lease taken/, LEASE_MS + 5_000);
      const takeoverMs = takenAt - killedAt;
      await until(() => r.acked.size === EXECUTIONS, 60_000, `all ${EXECUTIONS} acknowledged after the takeover`);
      const allAt = Date.now();
      // B went on from A's saved watermark: it evaluated only the executions A had not.
      expect(a.output()).toMatch(new RegExp(`execution exec_${POLLED_BY_A - 1} `));
      expect(a.output()).not.toMatch(new RegExp(`execution exec_${POLLED_BY_A} `));
      expect(b.output()).toMatch(new RegExp(`poll from \\S+: \\d+ page\\(s\\), ${EXECUTIONS - POLLED_BY_A} new execution\\(s\\)`));

      const perExecution = [...r.idsByExecution.values()].map((ids) => ids.size);
      const resent = [...r.received.entries()].filter(([, n]) => n > 1).map(([id]) => id);
      const extraRequests = r.requests() - EXECUTIONS;
      console.log(
        `failover: takeover ${takeoverMs} ms after the SIGKILL (lease ${LEASE_MS} ms); in flight at the kill ${inFlight.length}; ` +
          `re-sent ${resent.length} (${extraRequests} extra requests); acknowledged ones re-sent ${r.resentAfterAck}; ` +
          `executions ${r.idsByExecution.size}, with more than one delivery id ${perExecution.filter((n) => n > 1).length}; all delivered ${allAt - killedAt} ms after the kill`,
      );
      expect(inFlight).toHaveLength(CONCURRENCY);
      // The lease ends at most LEASE_MS after A's last renewal; B tries again 10 ms after its TTL says so.
      expect(takeoverMs).toBeLessThanOrEqual(LEASE_MS + 250);
      expect(r.idsByExecution.size).toBe(EXECUTIONS);
      expect(perExecution.filter((n) => n !== 1)).toEqual([]);
      expect(resent.sort()).toEqual([...inFlight].sort());
      expect(extraRequests).toBe(CONCURRENCY);
      expect(r.resentAfterAck).toBe(0);

      // Redis goes away; executions keep completing meanwhile.
      const before = r.requests();
      await server.kill();
      const downAt = Date.now();
      r.addLogs(LATER);
      await b.saw(/Redis unreachable/, 10_000);
      await until(() => Date.now() - downAt >= OUTAGE_MS, OUTAGE_MS + 1_000, 'the outage');
      const deliveredDuringOutage = r.requests() - before;
      await server.start();
      const upAt = Date.now();
      await until(() => r.acked.size === EXECUTIONS + LATER, 60_000, `the ${LATER} later executions acknowledged after Redis came back`);
      const resumedMs = Date.now() - upAt;
      const relost = b.lines.some((l) => l.at >= downAt && /lease lost/.test(l.text));
      const perExecutionAfter = [...r.idsByExecution.values()].map((ids) => ids.size);
      console.log(
        `Redis down ${upAt - downAt} ms (lease ${relost ? 'lost and taken again' : 'kept'}): ${deliveredDuringOutage} deliveries during it; the ${LATER} later executions all acknowledged ${resumedMs} ms after it came back; ` +
          `extra requests ${r.requests() - EXECUTIONS - LATER - CONCURRENCY}; executions with more than one delivery id ${perExecutionAfter.filter((n) => n > 1).length}`,
      );
      expect(deliveredDuringOutage).toBe(0);
      expect(r.idsByExecution.size).toBe(EXECUTIONS + LATER);
      expect(perExecutionAfter.filter((n) => n !== 1)).toEqual([]);
      expect(r.requests()).toBe(EXECUTIONS + LATER + CONCURRENCY);
      // Told once when it starts (and once when it is over), not at every retry.
      const told = (what: RegExp) => b.lines.filter((l) => what.test(l.text) && !/: recovered after/.test(l.text)).length;
      expect(told(/^\S+ Redis unreachable: cannot renew the lease/)).toBeLessThanOrEqual(1);
      expect(told(/^\S+ Redis unreachable: the state waits to be written/)).toBeLessThanOrEqual(1);
      expect(told(/^\S+ delivery worker:/)).toBeLessThanOrEqual(1);

      b.child.kill('SIGTERM');
      expect(await exited(b.child)).toBe(0);
      const all = a.output() + b.output();
      expect(all).not.toContain(API_KEY);
      expect(all).not.toContain(SECRET);
      // Redis holds payloads and ids (as state.json does), never the API key or the webhook secret.
      const dump = await dumpRedis(server.url);
      expect(dump.text).toContain('exec_999');
      expect(dump.text).not.toContain(API_KEY);
      expect(dump.text).not.toContain(SECRET);
    } finally {
      a.child.kill('SIGKILL');
      b.child.kill('SIGKILL');
      await Promise.all([exited(a.child), exited(b.child)]);
      if (process.env.FAILOVER_OUTPUT) console.log(`--- A\n${a.output()}\n--- B\n${b.output()}`);
    }
  }, 180_000);

  it('a holder paused past its lease (SIGSTOP) sends nothing new when it wakes: its lease is gone', async () => {
    const { r } = p;
    const TOTAL = 300;
    await fsyncAlways();
    r.addLogs(TOTAL);
    const config = writeConfig(dir, r, { leaseSeconds: LEASE_MS / 1000 });
    const env = { MONITOR_API_KEY: API_KEY, HOOK_SECRET: SECRET };
    r.hangAfter = 100;
    const a = monitorProcess(config, server.url, env);
    await a.saw(/lease taken/, 20_000);
    const b = monitorProcess(config, server.url, env);
    try {
      await b.saw(/another monitor holds the lease/, 20_000);
      await until(() => r.acked.size >= 100 && r.hung.length >= CONCURRENCY && Date.now() - r.lastRequestAt > 300, 60_000, `100 acknowledged, ${CONCURRENCY} in flight`);
      const inFlight = r.hung.map((h) => h.id);
      a.child.kill('SIGSTOP');
      const pausedAt = Date.now();
      r.hangAfter = Infinity;
      const takenAt = await b.saw(/lease taken/, LEASE_MS + 5_000);
      await until(() => r.acked.size === TOTAL, 60_000, `all ${TOTAL} acknowledged by the new holder`);
      const seenAtLines = a.lines.length;

      // A wakes up with its 8 requests still open: it finds its lease gone and stops.
      a.child.kill('SIGCONT');
      await a.saw(/lease lost/, 10_000);
      r.hung.splice(0).forEach((h) => h.res.destroy());
      await a.saw(/waiting to take the lease again/, 10_000);
      const afterWake = a.lines.slice(seenAtLines).map((l) => l.text);
      const started = afterWake.filter((l) => /attempt \d\/6/.test(l)).map((l) => /delivery (dlv_\w+)/.exec(l)?.[1]);
      const startedNew = started.filter((id) => !inFlight.includes(id ?? ''));
      console.log(
        `paused holder: B took over ${takenAt - pausedAt} ms after the SIGSTOP; in flight at the pause ${inFlight.length}; ` +
          `requests ${r.requests()} for ${TOTAL} deliveries; A after waking: ${started.length} outcome(s) of attempts in flight at the pause, ${startedNew.length} other attempt(s)`,
      );
      expect(takenAt - pausedAt).toBeLessThanOrEqual(LEASE_MS + 250);
      expect(r.idsByExecution.size).toBe(TOTAL);
      expect([...r.idsByExecution.values()].filter((ids) => ids.size !== 1)).toEqual([]);
      // Only the deliveries in flight at the pause went out twice (B re-sent them); A started none after waking.
      expect(r.requests()).toBe(TOTAL + inFlight.length);
      expect(startedNew).toEqual([]);
      expect(afterWake.join('\n')).toMatch(/lease lost: (not renewed within the lease time|another monitor took the lease|a write was refused)/);
    } finally {
      a.child.kill('SIGCONT');
      a.child.kill('SIGKILL');
      b.child.kill('SIGKILL');
      await Promise.all([exited(a.child), exited(b.child)]);
      if (process.env.FAILOVER_OUTPUT) console.log(`--- A\n${a.output()}\n--- B\n${b.output()}`);
    }
  }, 120_000);
});
