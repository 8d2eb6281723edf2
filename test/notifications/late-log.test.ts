/**
 * Promise (issue 34): a late log never makes a workflow look idle. Logs arrive out of order (a
 * long execution is listed when it ends, behind shorter ones that started later); an older
 * execution read after a newer one must not move the workflow's last run back and raise a
 * false `no_activity` alert. Checked on the rule engine and through the notifier, with the
 * late log's end before and after the idle threshold.
 */
import { describe, expect, it } from 'vitest';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import { initialRulesState, RuleEngine } from '../../src/satellites/notifications/rule-engine.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import { runEndedAt, T0 } from './execution-log.js';
import { fakeClock } from './fake-clock.js';

const MIN = 60_000;
const idle1h = [{ type: 'no_activity' as const, hours: 1 }];

describe('promise: a late log never makes a workflow look idle', () => {
  it.each([
    ['an hour and more older', 5 * MIN],
    ['a minute older', 49 * MIN],
    ['older than the watch itself', -30 * MIN],
  ])('rule engine: a run %s read after a newer one leaves the last run where it was', (_name, lateEnd) => {
    const engine = new RuleEngine(idle1h, initialRulesState(T0 - 60 * MIN));
    engine.completed(runEndedAt(T0 + 50 * MIN), T0 + 50 * MIN);
    engine.completed(runEndedAt(T0 + lateEnd), T0 + 51 * MIN);
    expect(engine.state.workflows['wf-1']?.lastRunAt).toBe(T0 + 50 * MIN);
    // 20 minutes after the newest run: not idle.
    expect(engine.inactive(['wf-1'], T0 + 70 * MIN)).toEqual([]);
    // An hour and a minute after it: idle, by the newest run's time.
    expect(engine.inactive(['wf-1'], T0 + 111 * MIN)).toEqual([
      { workflowId: 'wf-1', fired: { rule: 'no_activity', reason: 'no executions for 61 min (threshold 1 h)' } },
    ]);
  });

  it('rule engine: several late logs in any order, the last run is the newest end of them all', () => {
    const ends = [40, 10, 55, 20, 54, 1].map((m) => T0 + m * MIN);
    const engine = new RuleEngine(idle1h, initialRulesState(T0));
    ends.forEach((at, k) => {
      engine.completed(runEndedAt(at), T0 + 60 * MIN + k);
      expect(engine.state.workflows['wf-1']?.lastRunAt).toBe(Math.max(...ends.slice(0, k + 1)));
    });
    expect(engine.inactive(['wf-1'], T0 + 115 * MIN)).toEqual([]);
  });

  it('notifier: the late log of a long execution raises no no_activity alert and queues nothing', () => {
    const clock = fakeClock(T0 + 50 * MIN);
    const sent: string[] = [];
    const n = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true, alertRules: idle1h }),
      clock,
      targets: [{ key: 'rec', label: 'rec', send: async (d) => (sent.push(d.body), { kind: 'status', status: 200 }) }],
      random: () => 0,
    });
    n.executionCompleted(runEndedAt(T0 + 50 * MIN));
    clock.set(T0 + 60 * MIN);
    // A long execution that ended 55 minutes before now, read late.
    n.executionCompleted(runEndedAt(T0 + 5 * MIN, { durationMs: 4 * MIN }));
    clock.set(T0 + 70 * MIN);
    expect(n.checkInactivity()).toEqual([]);
    expect(n.queue.deliveries).toEqual([]);
    clock.set(T0 + 111 * MIN);
    expect(n.checkInactivity().map((d) => d.workflowId)).toEqual(['wf-1']);
  });
});
