/**
 * The pacer under hostile figures: memory that does not grow with a service's limit, a
 * bounded number of keys, no hold past the call's budget, and no timer past 2³¹−1 ms.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runTool } from '../../src/harness/run/execute.js';
import { MAX_HEADER_WAIT_MS } from '../../src/harness/pace/header-figures.js';
import { Pacer } from '../../src/harness/pace/pacer.js';
import { sleep } from '../../src/harness/send/sleep.js';
import { mockService } from '../helpers/mock-service.js';
import { watchTimerWarnings } from '../helpers/timer-warnings.js';
import { pacedExampleTool } from './fixtures.js';

const warnings = watchTimerWarnings();
afterAll(() => warnings.stop());
afterEach(async () => {
  vi.useRealTimers();
  await warnings.settle();
  expect(warnings.seen).toEqual([]);
});

const ORIGIN = 'https://paced.example.test';
const YEAR_S = 365 * 86_400;
const pacedTool = pacedExampleTool(ORIGIN, { limit: 5, windowMs: 1_000 });

describe('pacer memory does not depend on the figures a service sends', () => {
  it('a limit of 10⁷, all spent elsewhere, costs the heap nothing measurable', async () => {
    const pacer = new Pacer();
    const spec = { key: 'mem', limit: 10, windowMs: 1_000 };
    const before = process.memoryUsage().heapUsed;
    (await pacer.acquire(spec)).done({ status: 200, headers: { 'x-ratelimit-limit': '10000000', 'x-ratelimit-remaining': '0' } });
    // Before the fix this held one array entry per slot: 10⁷ of them, some 80 MB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(4 * 1024 * 1024);
    await expect(pacer.acquire(spec, undefined, 10)).rejects.toMatchObject({ error: { code: 'rate_limited' } });
  });

  it('a limit of 10⁹ does not kill a process with a 64 MB heap', async () => {
    const script = fileURLToPath(new URL('./scripts/huge-limit.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--max-old-space-size=64', '--import', 'tsx', script], { timeout: 20_000 });
    const report = JSON.parse(stdout) as { grewBytes: number; outcome: { code: string; retryAfterMs: number } };
    expect(report.grewBytes).toBeLessThan(4 * 1024 * 1024);
    // Every slot is held for one window (1 s), longer than the 10 ms this call allows.
    expect(report.outcome).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(report.outcome.retryAfterMs).toBeGreaterThan(900);
    expect(report.outcome.retryAfterMs).toBeLessThanOrEqual(1_000);
  }, 30_000);

  it('remembers at most maxKeys keys, forgetting idle ones first and never a busy one', async () => {
    const pacer = new Pacer({ maxKeys: 50 });
    const busy = await pacer.acquire({ key: 'busy', limit: 1, windowMs: 60_000 });
    for (let i = 0; i < 1_000; i++) (await pacer.acquire({ key: `k${i}`, limit: 1, windowMs: 60_000 })).done({ status: 200, headers: {} });
    expect(pacer.keyCount).toBe(50);
    expect(pacer.pending('busy')).toEqual({ inFlight: 1, queued: 0 });
    busy.done();
  });
});

/** A fresh pacer on a fake clock, with the first turn of a key allowing one request per window taken. */
async function oneSlotTaken(key: string, windowMs: number) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  const pacer = new Pacer();
  const spec = { key, limit: 1, windowMs };
  return { pacer, spec, first: await pacer.acquire(spec) };
}

/** `started`, or the failure an acquire was refused with. */
const settled = (turn: Promise<unknown>) => turn.then(() => 'started', (error: { error: unknown }) => error.error);

describe('a hold never outlasts the call’s budget', () => {
  it('a reset a year away: the next call is rate_limited at once, with when to come back, and nothing is sent', async () => {
    const svc = mockService(ORIGIN);
    const reset = String(Math.floor(Date.now() / 1000) + YEAR_S);
    svc.on('GET', '/items', { status: 200, body: { ok: true }, headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } });
    const pacer = new Pacer();
    const first = await runTool(pacedTool, { key: 'team-year' }, { dispatcher: svc.agent, pacer });
    expect(first).toMatchObject({ success: true, meta: { rateLimit: { limit: 5, remaining: 0 } } });
    const started = performance.now();
    const second = await runTool(pacedTool, { key: 'team-year' }, { dispatcher: svc.agent, pacer });
    expect(performance.now() - started).toBeLessThan(500);
    expect(second).toMatchObject({ success: false, error: { code: 'rate_limited', retryable: true }, meta: { attempts: 0 } });
    const retryAfterMs = second.success ? 0 : second.error.retryAfterMs!;
    expect(retryAfterMs).toBeGreaterThan(MAX_HEADER_WAIT_MS - 5_000);
    expect(retryAfterMs).toBeLessThanOrEqual(MAX_HEADER_WAIT_MS);
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: '/items', headers: { 'x-pacing-key': 'team-year' } });
  });

  it('a hold past maxRetryAfterMs ends the call at once; within it the call waits and goes', async () => {
    const svc = mockService(ORIGIN);
    const spent = { status: 200, body: { ok: true }, headers: { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' } };
    svc.on('GET', '/items', spent, { status: 200, body: { ok: true } });
    const pacer = new Pacer();
    await runTool(pacedTool, { key: 'team-budget' }, { dispatcher: svc.agent, pacer });
    const refused = await runTool(pacedTool, { key: 'team-budget' }, { dispatcher: svc.agent, pacer, retry: { maxRetryAfterMs: 200 } });
    expect(refused).toMatchObject({ success: false, error: { code: 'rate_limited', message: expect.stringContaining('maxRetryAfterMs') } });
    expect(refused.success || refused.error.retryAfterMs).toBeGreaterThan(500);
    const started = performance.now();
    const waited = await runTool(pacedTool, { key: 'team-budget' }, { dispatcher: svc.agent, pacer, retry: { maxRetryAfterMs: 5_000 } });
    expect(waited).toMatchObject({ success: true, meta: { attempts: 1 } });
    expect(performance.now() - started).toBeGreaterThan(500);
    expect(svc.requests).toHaveLength(2);
  });

  it('a waiter whose budget ends while every slot is in flight is refused at its deadline', async () => {
    const { pacer, spec, first } = await oneSlotTaken('in-flight', 3_000);
    const outcome = settled(pacer.acquire(spec, undefined, 5_000));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(pacer.pending('in-flight')).toEqual({ inFlight: 1, queued: 1 });
    await vi.advanceTimersByTimeAsync(2);
    // Nobody knows when the running request ends; a slot frees one window after it does.
    expect(await outcome).toMatchObject({ code: 'rate_limited', retryAfterMs: 3_000 });
    expect(pacer.pending('in-flight')).toEqual({ inFlight: 1, queued: 0 });
    first.done();
  });

  it('when a finish reveals a wait longer than a queued call allows, that call is refused then, not at its deadline', async () => {
    const { pacer, spec, first } = await oneSlotTaken('revealed', 10_000);
    const patient = pacer.acquire(spec, undefined, 60_000);
    const hasty = settled(pacer.acquire(spec, undefined, 5_000));
    first.done({ status: 200, headers: {} });
    expect(await hasty).toMatchObject({ code: 'rate_limited', retryAfterMs: 10_000 });
    await vi.advanceTimersByTimeAsync(10_001);
    (await patient).done();
    expect(pacer.pending('revealed')).toEqual({ inFlight: 0, queued: 0 });
  });

  it('an abort still ends a wait inside the budget', async () => {
    const pacer = new Pacer();
    const spec = { key: 'abortable', limit: 1, windowMs: 60_000 };
    (await pacer.acquire(spec)).done({ status: 200, headers: {} });
    const abort = new AbortController();
    const waiting = pacer.acquire(spec, abort.signal, 120_000);
    abort.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
  });
});

describe('no timer past 2³¹−1 ms', () => {
  it('a sleep longer than a timer can hold is taken in turns, and still aborts', async () => {
    const abort = new AbortController();
    const long = sleep(2 ** 31 + 10, abort.signal);
    const early = await Promise.race([long.then(() => 'resolved'), new Promise((resolve) => setTimeout(resolve, 30, 'waiting'))]);
    expect(early).toBe('waiting');
    abort.abort(new Error('enough'));
    await expect(long).rejects.toThrow('enough');
  });

  it('a time limit past 2³¹−1 ms is held as the longest timer, not fired after 1 ms', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await runTool(pacedTool, { key: 'long-timeout' }, { dispatcher: svc.agent, pacer: false, timeoutMs: 2 ** 32 });
    expect(result).toMatchObject({ success: true, output: { ok: true } });
  });
});
