import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogMonitor, MonitorError } from '../../src/satellites/notifications/monitor.js';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import type { Target } from '../../src/satellites/notifications/queue.js';
import { parseSettings, type NotificationSettingsInput } from '../../src/satellites/notifications/settings.js';
import type { NotificationState } from '../../src/satellites/notifications/state.js';
import { jsonFileStore, type StateStore } from '../../src/satellites/notifications/store.js';
import { fakeClock, flush } from './fake-clock.js';
import { fakeLog, fakeLogsApi, ORIGIN } from './logs-api.js';

const T0 = Date.UTC(2026, 0, 5, 12);
const API_KEY = 'sk-live-monitor-secret';

/** A target that records which executions it was sent (and the payloads), answering in turn. */
function recorder(statuses: number[] = []) {
  const sent: { id: string; executionId: string; body: string }[] = [];
  const target: Target = {
    key: 'rec',
    label: 'webhook https://receiver.example.com',
    async send(delivery) {
      sent.push({ id: delivery.id, executionId: delivery.executionId, body: delivery.body });
      return { kind: 'status', status: statuses.shift() ?? 200 };
    },
  };
  return { sent, target };
}

/** Lets the monitor's loops run until `condition` holds (they wait on real I/O of the mock). */
async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await flush();
  expect(condition()).toBe(true);
}

function setup(options: {
  api: ReturnType<typeof fakeLogsApi>;
  store: StateStore<NotificationState>;
  clock: ReturnType<typeof fakeClock>;
  target: Target;
  settings?: Partial<NotificationSettingsInput>;
  lines?: string[];
  onLine?: (line: string) => void;
  pageSize?: number;
  pollIntervalMs?: number;
}) {
  const lines = options.lines ?? [];
  const log = (line: string) => {
    lines.push(line);
    options.onLine?.(line);
  };
  const notifier = new Notifier({
    settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://receiver.example.com/hook' }], allWorkflows: true, ...options.settings }),
    store: options.store,
    clock: options.clock,
    targets: [options.target],
    random: () => 0,
    log,
  });
  const monitor = new LogMonitor({
    notifier,
    baseUrl: ORIGIN,
    apiKey: API_KEY,
    workspaceId: 'ws-1',
    dispatcher: options.api.agent,
    startFrom: T0,
    pageSize: options.pageSize ?? 100,
    pollIntervalMs: options.pollIntervalMs,
    log,
  });
  return { notifier, monitor, lines };
}

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function fileStore() {
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-monitor-'));
  dirs.push(dir);
  return jsonFileStore<NotificationState>(join(dir, 'state.json'));
}

const evaluatedIds = (lines: string[]) => lines.flatMap((l) => /^execution (\S+) /.exec(l)?.[1] ?? []);

describe('log monitor', () => {
  it('polls with order=asc, startDate and the cursor, and evaluates each execution once', async () => {
    const api = fakeLogsApi();
    for (let i = 0; i < 250; i++) api.logs.push(fakeLog(i, T0 + i * 1_000));
    const clock = fakeClock(T0 + 300_000, { autoAdvance: true });
    const { sent, target } = recorder();
    const t = setup({ api, store: fileStore(), clock, target });
    expect(await t.monitor.pollOnce()).toEqual({ pages: 3, evaluated: 250 });
    const [first, second] = api.requests;
    expect(Object.fromEntries(first?.query ?? [])).toEqual({
      workspaceId: 'ws-1',
      startDate: new Date(T0).toISOString(),
      order: 'asc',
      limit: '100',
      details: 'basic',
    });
    expect(first?.headers['x-api-key']).toBe(API_KEY);
    expect(second?.query.get('cursor')).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(second?.query.get('startDate')).toBe(new Date(T0).toISOString());

    // Nothing new: nothing evaluated again.
    expect((await t.monitor.pollOnce()).evaluated).toBe(0);
    api.logs.push(fakeLog(250, T0 + 251_000));
    expect((await t.monitor.pollOnce()).evaluated).toBe(1);
    await t.notifier.deliverDue();
    expect(sent).toHaveLength(251);
    expect(new Set(sent.map((s) => s.executionId)).size).toBe(251);
    expect(t.lines.join('\n')).not.toContain(API_KEY);
  });

  it('re-reads a window behind the newest start, so an execution that ends late is not missed', async () => {
    const api = fakeLogsApi();
    api.logs.push(fakeLog(1, T0 + 1_000), fakeLog(2, T0 + 2_000));
    const clock = fakeClock(T0 + 10_000, { autoAdvance: true });
    const t = setup({ api, store: fileStore(), clock, target: recorder().target });
    await t.monitor.pollOnce();
    // A long run that started before the newest evaluated one shows up only now.
    api.logs.push(fakeLog(3, T0 + 500, { durationMs: 60_000 }));
    clock.set(T0 + 70_000);
    expect((await t.monitor.pollOnce()).evaluated).toBe(1);
    expect(api.requests[1]?.query.get('startDate')).toBe(new Date(T0).toISOString());
    expect(evaluatedIds(t.lines)).toEqual(['exec_1', 'exec_2', 'exec_3']);
  });

  it('evaluates a log that was still running once it has ended', async () => {
    const api = fakeLogsApi();
    const running = fakeLog(1, T0 + 1_000, { endedAt: null, totalDurationMs: null });
    api.logs.push(running);
    const clock = fakeClock(T0 + 5_000, { autoAdvance: true });
    const t = setup({ api, store: fileStore(), clock, target: recorder().target });
    expect((await t.monitor.pollOnce()).evaluated).toBe(0);
    // Many newer runs move the newest start far ahead; the running one still holds the window.
    for (let i = 2; i < 5; i++) api.logs.push(fakeLog(i, T0 + i * 3_600_000));
    clock.set(T0 + 5 * 3_600_000);
    await t.monitor.pollOnce();
    running.endedAt = new Date(T0 + 4 * 3_600_000).toISOString();
    running.totalDurationMs = 4 * 3_600_000 - 1_000;
    await t.monitor.pollOnce();
    await t.monitor.pollOnce();
    expect(evaluatedIds(t.lines).sort()).toEqual(['exec_1', 'exec_2', 'exec_3', 'exec_4']);
  });

  it('waits out a 429 for the Retry-After seconds, on its clock', async () => {
    const api = fakeLogsApi();
    api.logs.push(fakeLog(1, T0 + 1_000));
    api.answerNext({ status: 429, headers: { 'retry-after': '7' }, body: { error: 'Rate limit exceeded' } });
    const clock = fakeClock(T0 + 5_000, { autoAdvance: true });
    const t = setup({ api, store: fileStore(), clock, target: recorder().target });
    expect((await t.monitor.pollOnce()).evaluated).toBe(1);
    expect(api.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([7_000]);
    expect(t.lines).toContain('logs API rate limit reached: waiting 7 s');
  });

  it('pauses until the refill when the service says no tokens remain, and not before', async () => {
    const api = fakeLogsApi();
    for (let i = 0; i < 3; i++) api.logs.push(fakeLog(i, T0 + i * 1_000));
    const clock = fakeClock(T0 + 5_000, { autoAdvance: true });
    api.setHeaders({ 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': new Date(T0 + 60_000).toISOString() });
    const t = setup({ api, store: fileStore(), clock, target: recorder().target, pageSize: 1 });
    await t.monitor.pollOnce();
    expect(clock.sleeps).toEqual([]); // far from the limit: no waiting
    api.setHeaders({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(T0 + 60_000).toISOString() });
    await t.monitor.pollOnce();
    expect(clock.sleeps).toEqual([55_000]);
  });

  it('tries a page again after passing 5xx faults, then gives up with the real error', async () => {
    const api = fakeLogsApi();
    api.logs.push(fakeLog(1, T0 + 1_000));
    api.answerNext({ status: 502, body: { error: 'bad gateway' } });
    api.answerNext({ status: 503, body: { error: 'unavailable' } });
    const clock = fakeClock(T0 + 5_000, { autoAdvance: true });
    const t = setup({ api, store: fileStore(), clock, target: recorder().target });
    expect((await t.monitor.pollOnce()).evaluated).toBe(1);
    // Each fault wait, then the rest of the 6 s gap the (yet unknown, so free) plan asks between calls.
    expect(clock.sleeps).toEqual([1_000, 5_000, 2_000, 4_000]);
    expect(t.lines.slice(0, 2)).toEqual(['logs API: HTTP 502; trying again in 1 s', 'logs API: HTTP 503; trying again in 2 s']);
    for (let i = 0; i < 4; i++) api.answerNext({ status: 500, body: { error: 'database down' } });
    await expect(t.monitor.pollOnce()).rejects.toThrow('reading logs failed (upstream_error): database down');
  });

  it('stops with an error that names the refusal, never the key, on 401', async () => {
    const api = fakeLogsApi();
    api.answerNext({ status: 401, body: { error: `invalid key ${API_KEY}` } });
    const t = setup({ api, store: fileStore(), clock: fakeClock(T0, { autoAdvance: true }), target: recorder().target });
    const error = await t.monitor.pollOnce().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MonitorError);
    expect((error as Error).message).toMatch(/unauthorized/);
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it('after being killed mid-stream and restarted, evaluates and delivers every execution exactly once', async () => {
    const api = fakeLogsApi();
    // Every third execution fails, and exec_150 too: the rule fires on 2 failures in a row, so
    // only exec_149 → exec_150 (across the kill) can fire. A re-evaluated execution would fire
    // early (exec_149 counted twice); a forgotten counter would not fire at all.
    for (let i = 0; i < 250; i++) api.logs.push(fakeLog(i, T0 + i * 1_000, { level: i % 3 === 2 || i === 150 ? 'error' : 'info' }));
    const store = fileStore();
    const clock = fakeClock(T0 + 300_000, { autoAdvance: true });
    const { sent, target } = recorder();
    const settings = { alertRules: [{ type: 'consecutive_failures' as const, count: 2 }] };
    const kill = new AbortController();
    const firstLines: string[] = [];
    const first = setup({
      api,
      store,
      clock,
      target,
      settings,
      pageSize: 50,
      lines: firstLines,
      onLine: () => {
        if (evaluatedIds(firstLines).length === 150) kill.abort(new Error('killed'));
      },
    });
    await expect(first.monitor.pollOnce(kill.signal)).rejects.toThrow('killed');
    expect(evaluatedIds(firstLines).at(-1)).toBe('exec_149');

    const second = setup({ api, store, clock, target, settings, pageSize: 50 });
    await second.monitor.run({ once: true });
    const evaluated = [...evaluatedIds(firstLines), ...evaluatedIds(second.lines)];
    expect(evaluated).toHaveLength(250);
    expect(new Set(evaluated).size).toBe(250);
    expect(sent.map((s) => s.executionId)).toEqual(['exec_150']);
  });

  it('loses nothing and repeats nothing when it dies in the middle of a page', async () => {
    const api = fakeLogsApi();
    for (let i = 0; i < 120; i++) api.logs.push(fakeLog(i, T0 + i * 1_000));
    const file = fileStore();
    let saves = 0;
    // The second save (the second page's) never happens: the process is gone.
    const dying: StateStore<NotificationState> = {
      load: () => file.load(),
      save: (value) => {
        if (++saves === 2) throw new Error('killed');
        file.save(value);
      },
    };
    const clock = fakeClock(T0 + 300_000, { autoAdvance: true });
    const { sent, target } = recorder();
    const first = setup({ api, store: dying, clock, target, pageSize: 50 });
    await expect(first.monitor.pollOnce()).rejects.toThrow('killed');
    expect(evaluatedIds(first.lines)).toHaveLength(50);

    const second = setup({ api, store: file, clock, target, pageSize: 50 });
    await second.monitor.run({ once: true });
    expect(evaluatedIds(second.lines)).toHaveLength(70);
    expect(evaluatedIds(second.lines)[0]).toBe('exec_50');
    expect(sent).toHaveLength(120);
    expect(new Set(sent.map((s) => s.id)).size).toBe(120);
  });

  it('runs until stopped: polls at the plan sustained rate, delivers and retries on schedule', async () => {
    const api = fakeLogsApi({ plan: 'free' });
    api.logs.push(fakeLog(1, T0 + 1_000, { level: 'error' }));
    const clock = fakeClock(T0 + 5_000);
    const { sent, target } = recorder([503]);
    const t = setup({ api, store: fileStore(), clock, target, pollIntervalMs: 1_000 });
    const stop = new AbortController();
    const running = t.monitor.run({ signal: stop.signal });
    await until(() => sent.length === 1);
    // The free plan allows 10 calls a minute: the 1 s poll interval is stretched to 6 s.
    await until(() => clock.sleeps.includes(6_000));
    await clock.advance(5_000);
    await until(() => sent.length === 2); // the retry, 5 s after the 503
    expect(new Set(sent.map((s) => s.id)).size).toBe(1);
    api.logs.push(fakeLog(2, T0 + 7_000));
    await clock.advance(1_000);
    await until(() => sent.length === 3);
    expect(sent[2]?.executionId).toBe('exec_2');
    expect(api.requests).toHaveLength(2);
    stop.abort();
    await running;
    expect(t.lines.filter((l) => l.startsWith('poll from'))).toHaveLength(2);
  });

  it('asks for details=full when the payload includes the final output, and passes it on', async () => {
    const api = fakeLogsApi();
    api.logs.push({ ...fakeLog(1, T0 + 1_000), finalOutput: { answer: 42 } } as never);
    const clock = fakeClock(T0 + 5_000, { autoAdvance: true });
    const { sent, target } = recorder();
    const t = setup({ api, store: fileStore(), clock, target, settings: { includeFinalOutput: true } });
    await t.monitor.run({ once: true });
    expect(api.requests[0]?.query.get('details')).toBe('full');
    expect(api.requests[0]?.query.get('includeFinalOutput')).toBe('true');
    expect((JSON.parse(sent[0]?.body ?? '{}') as { data: { finalOutput: unknown } }).data.finalOutput).toEqual({ answer: 42 });
  });

  it('replaying from startFrom, counts the rules as watching since then (failure-rate window)', async () => {
    const api = fakeLogsApi();
    const hour = 3_600_000;
    for (let i = 0; i < 6; i++) api.logs.push(fakeLog(i, T0 + hour + i * 60_000, { level: 'error' }));
    const clock = fakeClock(T0 + 3 * hour, { autoAdvance: true });
    const { sent, target } = recorder();
    const t = setup({ api, store: fileStore(), clock, target, settings: { alertRules: [{ type: 'failure_rate', percent: 50, windowHours: 1 }] } });
    await t.monitor.run({ once: true });
    expect(sent.map((s) => s.executionId)).toEqual(['exec_4']);
  });
});
