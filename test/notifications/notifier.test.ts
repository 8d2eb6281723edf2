import { describe, expect, it } from 'vitest';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import type { CompletedLog } from '../../src/satellites/notifications/payload.js';
import type { Target } from '../../src/satellites/notifications/queue.js';
import type { DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import { parseSettings, type NotificationSettingsInput } from '../../src/satellites/notifications/settings.js';
import type { NotificationState } from '../../src/satellites/notifications/state.js';
import { memoryStore } from '../../src/satellites/notifications/store.js';
import { workflowExecutionCompletedEventSchema } from '../../src/webhooks/index.js';
import { mockService } from '../helpers/mock-service.js';
import { executionLog, T0 } from './execution-log.js';
import { fakeClock, flush } from './fake-clock.js';

const log = executionLog;

function recorder(outcomes: DeliveryOutcome[] = []) {
  const sent: { executionId: string; reasons: string[]; body: string }[] = [];
  const target: Target = {
    key: 'rec',
    label: 'test',
    async send(delivery) {
      sent.push({ executionId: delivery.executionId, reasons: delivery.reasons, body: delivery.body });
      return outcomes.shift() ?? { kind: 'status', status: 200 };
    },
  };
  return { sent, target };
}

function notifier(settings: Partial<NotificationSettingsInput>, options: { clock?: ReturnType<typeof fakeClock>; target?: Target; store?: ReturnType<typeof memoryStore<NotificationState>> } = {}) {
  const lines: string[] = [];
  const n = new Notifier({
    settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true, ...settings }),
    clock: options.clock ?? fakeClock(T0),
    targets: [options.target ?? recorder().target],
    store: options.store,
    random: () => 0,
    log: (line) => lines.push(line),
  });
  return { n, lines };
}

describe('notifier', () => {
  it.each<[string, Partial<NotificationSettingsInput>, Partial<CompletedLog>]>([
    ['another workflow', { allWorkflows: undefined, workflowIds: ['wf-2'] }, {}],
    ['a level left out', { levelFilter: ['error'] }, { level: 'info' }],
    ['a trigger left out', { triggerFilter: ['schedule'] }, { trigger: 'api' }],
  ])('skips %s', (_name, settings, entry) => {
    expect(notifier(settings).n.executionCompleted(log(entry))).toEqual([]);
  });

  it('without rules, notifies every execution that passes the filters', () => {
    const { n } = notifier({ workflowIds: ['wf-1'], allWorkflows: undefined, levelFilter: ['error'] });
    expect(n.executionCompleted(log({ level: 'error' }))).toHaveLength(1);
  });

  it('with rules, notifies only when one fires, with its reason', () => {
    const { n, lines } = notifier({ alertRules: [{ type: 'latency_threshold', seconds: 5 }] });
    expect(n.executionCompleted(log({ totalDurationMs: 5_000 }))).toEqual([]);
    const [delivery] = n.executionCompleted(log({ totalDurationMs: 6_000, executionId: 'slow' }));
    expect(delivery?.reasons).toEqual(['execution took 6000 ms, more than 5 s']);
    expect(lines).toEqual(['alert latency_threshold on workflow wf-1 execution slow: execution took 6000 ms, more than 5 s']);
  });

  it('lets only one of two simultaneous completions claim the cool-down', async () => {
    const { n } = notifier({ alertRules: [{ type: 'cost_threshold', cost: 1 }] });
    const results = await Promise.all([log({ cost: { total: 5 } }), log({ cost: { total: 7 } })].map(async (entry) => n.executionCompleted(entry)));
    expect(results.map((r) => r.length).sort()).toEqual([0, 1]);
  });

  it('remembers rule state and cool-downs across a restart', () => {
    const store = memoryStore<NotificationState>();
    const settings = { alertRules: [{ type: 'consecutive_failures' as const, count: 2 }] };
    const first = notifier(settings, { store });
    expect(first.n.executionCompleted(log({ level: 'error' }))).toEqual([]);
    const second = notifier(settings, { store });
    expect(second.n.executionCompleted(log({ level: 'error' }))).toHaveLength(1);
    const third = notifier(settings, { store });
    expect(third.n.executionCompleted(log({ level: 'error' }))).toEqual([]); // cooled down
  });

  it('checks no_activity on its own, with a synthetic execution the receiver schema accepts', () => {
    const clock = fakeClock(T0);
    const { sent, target } = recorder();
    const { n, lines } = notifier({ allWorkflows: undefined, workflowIds: ['wf-1', 'wf-2'], alertRules: [{ type: 'no_activity', hours: 1 }] }, { clock, target });
    n.executionCompleted(log({ workflowId: 'wf-1', endedAt: new Date(T0 + 30 * 60_000).toISOString() }));
    clock.set(T0 + 61 * 60_000);
    const created = n.checkInactivity();
    expect(created.map((d) => d.workflowId)).toEqual(['wf-2']);
    expect(lines).toEqual([expect.stringMatching(/^alert no_activity on workflow wf-2: no executions for 61 min \(threshold 1 h\)$/)]);
    const body = JSON.parse(created[0]!.body) as unknown;
    expect(workflowExecutionCompletedEventSchema.parse(body).data.trigger).toBe('system');
    expect(n.checkInactivity()).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('runs deliveries as they fall due on its clock, and stops when aborted', async () => {
    const clock = fakeClock(T0);
    const { sent, target } = recorder([{ kind: 'status', status: 500 }]);
    const { n } = notifier({}, { clock, target });
    const stop = new AbortController();
    const loop = n.runDeliveries(stop.signal);
    await clock.advance(10_000); // the loop now sleeps with nothing queued
    n.executionCompleted(log({ executionId: 'a' }));
    await clock.advance(0); // woken by the new delivery: first attempt, 500
    expect(sent).toHaveLength(1);
    await clock.advance(4_999);
    expect(sent).toHaveLength(1);
    await clock.advance(1);
    expect(sent).toHaveLength(2);
    expect(n.queue.deliveries[0]?.state).toBe('delivered');
    stop.abort();
    await loop;
  });
});

describe('delivery loop', () => {
  it('does not let a receiver that hangs hold back deliveries to another', async () => {
    const clock = fakeClock(T0);
    const delivered: string[] = [];
    const release: (() => void)[] = [];
    const hanging: Target = {
      key: 'hanging',
      label: 'hanging',
      send: (d) =>
        new Promise((resolve) => {
          release.push(() => resolve({ kind: 'status', status: 200 }));
          delivered.push(`hanging:${d.executionId}`);
        }),
    };
    const healthy: Target = { key: 'healthy', label: 'healthy', send: async (d) => (delivered.push(`healthy:${d.executionId}`), { kind: 'status', status: 200 }) };
    const n = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true }),
      clock,
      targets: [hanging, healthy],
      random: () => 0,
    });
    const stop = new AbortController();
    const loop = n.runDeliveries(stop.signal);
    n.executionCompleted(log({ executionId: 'a' }));
    await clock.advance(0);
    await clock.advance(1_000);
    n.executionCompleted(log({ executionId: 'b' }));
    await clock.advance(0);
    expect(delivered).toContain('healthy:b'); // sent while the first batch still waits on the hanging receiver
    expect(delivered).toContain('hanging:b'); // the hanging receiver gets its own attempt too
    release.forEach((answer) => answer());
    stop.abort();
    await loop;
    expect(n.queue.deliveries.filter((d) => d.executionId === 'a').map((d) => d.state)).toEqual(['delivered', 'delivered']);
  });
});

describe('delivery loop on a failing disk', () => {
  it('sends nothing, waits 5 s, and sends once the state can be saved again', async () => {
    const clock = fakeClock(T0);
    const { sent, target } = recorder();
    let diskFull = false;
    const store = memoryStore<NotificationState>();
    const { save, append } = store;
    // A full disk refuses the journal line that must precede a send, and the state file.
    store.save = (value) => {
      if (diskFull) throw new Error('ENOSPC: no space left on device');
      save(value);
    };
    store.append = (event) => {
      if (diskFull) throw new Error('ENOSPC: no space left on device');
      append?.(event);
    };
    const lines: string[] = [];
    const n = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true }),
      clock,
      targets: [target],
      store,
      log: (line) => lines.push(line),
    });
    n.executionCompleted(log({ executionId: 'a' }));
    diskFull = true;
    const stop = new AbortController();
    const loop = n.runDeliveries(stop.signal);
    await clock.advance(0);
    expect(sent).toEqual([]);
    expect(lines).toEqual(['deliveries paused for 5 s: ENOSPC: no space left on device']);
    expect(n.queue.pending()[0]?.attempts).toBe(0);
    diskFull = false;
    await clock.advance(5_000);
    expect(sent.map((s) => s.executionId)).toEqual(['a']);
    stop.abort();
    await loop;
  });
});

describe('notifier run (the sandbox host)', () => {
  it('checks no_activity on a timer while it delivers', async () => {
    const clock = fakeClock(T0);
    const { sent, target } = recorder();
    const { n } = notifier({ allWorkflows: undefined, workflowIds: ['wf-1'], alertRules: [{ type: 'no_activity', hours: 1 }] }, { clock, target });
    const stop = new AbortController();
    const running = n.run(stop.signal, { inactivityCheckMs: 60_000 });
    await clock.advance(60 * 60_000);
    expect(sent).toEqual([]); // exactly one hour idle is not more than one hour
    await clock.advance(60_000);
    for (let i = 0; i < 20 && sent.length === 0; i++) await flush();
    expect(sent.map((s) => s.executionId)).toEqual([`inactivity_wf-1_${T0 + 61 * 60_000}`]);
    stop.abort();
    await running;
  });
});

describe('webhook channel headers', () => {
  it('sends the spec headers unsigned when no secret is set', async () => {
    const hook = mockService('https://r.example.com');
    hook.on('POST', '/h', { status: 204 });
    const n = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true }),
      clock: fakeClock(T0),
      dispatcher: hook.agent,
    });
    const [delivery] = n.executionCompleted(log());
    const body = delivery?.body;
    await n.deliverDue();
    await flush();
    const headers = hook.requests[0]?.headers ?? {};
    expect(headers).toMatchObject({
      'svc-event': 'workflow.execution.completed',
      'svc-timestamp': String(T0),
      'svc-delivery-id': delivery?.id,
      'idempotency-key': delivery?.id,
      'content-type': 'application/json',
    });
    expect(headers['svc-signature']).toBeUndefined();
    expect(hook.requests[0]?.body).toBe(body);
    expect(n.queue.deliveries[0]?.state).toBe('delivered');
  });
});
