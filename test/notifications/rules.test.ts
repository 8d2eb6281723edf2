import { describe, expect, it } from 'vitest';
import type { CompletedLog } from '../../src/satellites/notifications/payload.js';
import { COOLDOWN_MS, initialRulesState, RuleEngine } from '../../src/satellites/notifications/rule-engine.js';
import type { AlertRule } from '../../src/satellites/notifications/settings.js';
import { runEndedAt as run } from './execution-log.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 12);

function engine(rule: AlertRule, since = T0) {
  return new RuleEngine([rule], initialRulesState(since));
}

/** Feeds runs one minute apart starting at `from`; returns which of them fired (by index). */
function feed(e: RuleEngine, runs: Parameters<typeof run>[1][], from: number): number[] {
  const fired: number[] = [];
  runs.forEach((options, i) => {
    const at = from + i * 60_000;
    if (e.completed(run(at, options), at).length) fired.push(i);
  });
  return fired;
}

const fail = { failed: true };
const ok = {};

describe('consecutive failures', () => {
  const rule: AlertRule = { type: 'consecutive_failures', count: 3 };

  it('fires on the Xth failure in a row', () => {
    expect(feed(engine(rule), [fail, fail, fail], T0)).toEqual([2]);
  });

  it('does not fire when a success resets the counter', () => {
    expect(feed(engine(rule), [fail, fail, ok, fail, fail], T0)).toEqual([]);
  });

  it('stays quiet for an hour after firing, then fires again', () => {
    const e = engine(rule);
    expect(feed(e, [fail, fail, fail, fail, fail], T0)).toEqual([2]);
    const later = T0 + 2 * 60_000 + COOLDOWN_MS;
    expect(e.completed(run(later, fail), later).map((f) => f.rule)).toEqual(['consecutive_failures']);
  });

  it('keeps counts per workflow', () => {
    const e = engine(rule);
    const at = T0;
    e.completed(run(at, { failed: true, workflowId: 'a' }), at);
    e.completed(run(at, { failed: true, workflowId: 'b' }), at);
    e.completed(run(at, { failed: true, workflowId: 'a' }), at);
    expect(e.completed(run(at, { failed: true, workflowId: 'b' }), at)).toEqual([]);
    expect(e.completed(run(at, { failed: true, workflowId: 'a' }), at)).toHaveLength(1);
  });
});

describe('failure rate', () => {
  const rule: AlertRule = { type: 'failure_rate', percent: 50, windowHours: 1 };
  const afterWindow = T0 + HOUR;

  it('fires when the rate exceeds X% over the window, once the window has elapsed', () => {
    // 3 failures out of 5 = 60% > 50%.
    expect(feed(engine(rule), [ok, ok, fail, fail, fail], afterWindow)).toEqual([4]);
  });

  it('does not fire at exactly X% ("exceeds" is strict)', () => {
    expect(feed(engine(rule), [ok, fail, ok, fail, ok, fail], afterWindow)).toEqual([]);
  });

  it('needs at least 5 executions in the window', () => {
    expect(feed(engine(rule), [fail, fail, fail, fail], afterWindow)).toEqual([]);
  });

  it('does not fire before the full window has elapsed since watching began', () => {
    expect(feed(engine(rule), [fail, fail, fail, fail, fail, fail], T0)).toEqual([]);
  });

  it('only counts executions inside the window', () => {
    const e = engine(rule);
    feed(e, [fail, fail, fail], afterWindow);
    // Two hours later the old failures are out of the window: 1 of 5 failed.
    expect(feed(e, [ok, ok, ok, ok, fail], afterWindow + 2 * HOUR)).toEqual([]);
  });

  it('is cooled down for an hour after firing', () => {
    const e = engine(rule);
    expect(feed(e, [fail, fail, fail, fail, fail, fail, fail], afterWindow)).toEqual([4]);
  });
});

describe('latency threshold', () => {
  const rule: AlertRule = { type: 'latency_threshold', seconds: 30 };

  it('fires when one execution takes longer than X seconds, not at X', () => {
    expect(feed(engine(rule), [{ durationMs: 30_000 }, { durationMs: 30_001 }], T0)).toEqual([1]);
  });

  it('fires on successes too, and cools down', () => {
    expect(feed(engine(rule), [{ durationMs: 40_000 }, { durationMs: 40_000, failed: true }], T0)).toEqual([0]);
  });
});

describe('latency spike', () => {
  const rule: AlertRule = { type: 'latency_spike', percent: 100, windowHours: 1 };
  const base = { durationMs: 1_000 };

  it('fires when an execution is more than X% slower than the window average', () => {
    expect(feed(engine(rule), [base, base, base, base, base, { durationMs: 2_001 }], T0)).toEqual([5]);
  });

  it('does not fire at exactly X% slower', () => {
    expect(feed(engine(rule), [base, base, base, base, base, { durationMs: 2_000 }], T0)).toEqual([]);
  });

  it('needs at least 5 executions for the baseline', () => {
    expect(feed(engine(rule), [base, base, base, base, { durationMs: 10_000 }], T0)).toEqual([]);
  });

  it('builds the baseline from the window only', () => {
    const e = engine(rule);
    feed(e, [base, base, base, base, base], T0);
    expect(feed(e, [{ durationMs: 10_000 }], T0 + 3 * HOUR)).toEqual([]);
  });
});

describe('cost threshold', () => {
  const rule: AlertRule = { type: 'cost_threshold', cost: 1 };

  it('fires when a single execution costs more than X', () => {
    expect(feed(engine(rule), [{ cost: 1 }, { cost: 1.01 }], T0)).toEqual([1]);
  });

  it('is cooled down for an hour', () => {
    const e = engine(rule);
    expect(feed(e, [{ cost: 2 }, { cost: 2 }], T0)).toEqual([0]);
    const later = T0 + 60_000 + COOLDOWN_MS;
    expect(e.completed(run(later, { cost: 2 }), later)).toHaveLength(1);
  });
});

describe('error count', () => {
  const rule: AlertRule = { type: 'error_count', count: 3, windowHours: 1 };

  it('fires when errors in the window exceed X, consecutive or not', () => {
    expect(feed(engine(rule), [fail, ok, fail, ok, fail, ok, fail], T0)).toEqual([6]);
  });

  it('does not fire at exactly X errors', () => {
    expect(feed(engine(rule), [fail, fail, fail], T0)).toEqual([]);
  });

  it('forgets errors older than the window', () => {
    const e = engine(rule);
    feed(e, [fail, fail, fail], T0);
    expect(feed(e, [fail], T0 + 2 * HOUR)).toEqual([]);
  });

  it('cools down for an hour', () => {
    expect(feed(engine(rule), [fail, fail, fail, fail, fail, fail], T0)).toEqual([3]);
  });
});

describe('no activity (timer)', () => {
  const rule: AlertRule = { type: 'no_activity', hours: 2 };

  it('fires when a workflow ran nothing for X hours, then once an hour while idle', () => {
    const e = engine(rule);
    e.completed(run(T0), T0);
    expect(e.inactive(['wf-1'], T0 + 2 * HOUR)).toEqual([]);
    const fired = e.inactive(['wf-1'], T0 + 2 * HOUR + 60_000);
    expect(fired.map((f) => f.workflowId)).toEqual(['wf-1']);
    expect(e.inactive(['wf-1'], T0 + 2 * HOUR + 30 * 60_000)).toEqual([]);
    expect(e.inactive(['wf-1'], T0 + 3 * HOUR + 60_000)).toHaveLength(1);
  });

  it('counts a workflow never seen as idle since watching began', () => {
    const e = engine(rule, T0);
    expect(e.inactive(['wf-new'], T0 + HOUR)).toEqual([]);
    expect(e.inactive(['wf-new'], T0 + 2 * HOUR + 1)).toHaveLength(1);
  });

  it('does not fire while executions keep coming', () => {
    const e = engine(rule);
    for (let h = 0; h < 6; h++) {
      const at = T0 + h * HOUR;
      e.completed(run(at), at);
      expect(e.inactive(['wf-1'], at + HOUR)).toEqual([]);
    }
  });
});

describe('cool-down claim', () => {
  it('is per rule and per workflow', () => {
    const e = new RuleEngine(
      [
        { type: 'latency_threshold', seconds: 1 },
        { type: 'cost_threshold', cost: 0.01 },
      ],
      initialRulesState(T0),
    );
    expect(e.completed(run(T0, { durationMs: 5_000, cost: 1 }), T0).map((f) => f.rule)).toEqual(['latency_threshold', 'cost_threshold']);
    expect(e.completed(run(T0, { durationMs: 5_000, cost: 1 }), T0)).toEqual([]);
    expect(e.completed(run(T0, { durationMs: 5_000, workflowId: 'wf-2' }), T0)).toHaveLength(1);
  });

  it('keeps a cool-down of its own for each of two rules of the same type', () => {
    const e = new RuleEngine(
      [
        { type: 'latency_threshold', seconds: 10 },
        { type: 'latency_threshold', seconds: 60 },
      ],
      initialRulesState(T0),
    );
    expect(e.completed(run(T0, { durationMs: 20_000 }), T0)).toEqual([{ rule: 'latency_threshold', reason: 'execution took 20000 ms, more than 10 s' }]);
    // A minute later a 90 s run: the 10 s rule is cooling down, the 60 s rule has never fired.
    const later = T0 + 60_000;
    expect(e.completed(run(later, { durationMs: 90_000 }), later)).toEqual([{ rule: 'latency_threshold', reason: 'execution took 90000 ms, more than 60 s' }]);
    expect(e.completed(run(later + 60_000, { durationMs: 90_000 }), later + 60_000)).toEqual([]);
    // After the hour, each fires again on its own.
    const hourOn = T0 + COOLDOWN_MS;
    expect(e.completed(run(hourOn, { durationMs: 20_000 }), hourOn).map((f) => f.reason)).toEqual(['execution took 20000 ms, more than 10 s']);
    expect(Object.keys(e.state.cooldowns).sort()).toEqual(['wf-1|0:latency_threshold', 'wf-1|1:latency_threshold']);
  });

  it('keeps separate cool-downs for two no_activity rules', () => {
    const e = new RuleEngine(
      [
        { type: 'no_activity', hours: 1 },
        { type: 'no_activity', hours: 3 },
      ],
      initialRulesState(T0),
    );
    expect(e.inactive(['wf-1'], T0 + 2 * HOUR).map((x) => x.fired.reason)).toEqual(['no executions for 120 min (threshold 1 h)']);
    expect(e.inactive(['wf-1'], T0 + 4 * HOUR).map((x) => x.fired.reason)).toEqual([
      'no executions for 240 min (threshold 1 h)',
      'no executions for 240 min (threshold 3 h)',
    ]);
  });
});

describe('what the rule engine remembers', () => {
  it('claims a cool-down for exactly an hour, and none for a rule it does not have', () => {
    const e = engine({ type: 'latency_threshold', seconds: 1 });
    expect(e.claimCooldown('wf-1', 0, T0)).toBe(true);
    expect(e.claimCooldown('wf-1', 0, T0 + COOLDOWN_MS - 1)).toBe(false);
    expect(e.claimCooldown('wf-1', 0, T0 + COOLDOWN_MS)).toBe(true);
    expect(e.claimCooldown('wf-1', 1, T0)).toBe(false);
    expect(e.state.cooldowns['wf-1|1:undefined']).toBeUndefined();
  });

  it('keeps runs sorted by end time when logs arrive out of order, and lists the workflows seen', () => {
    const e = engine({ type: 'error_count', count: 100, windowHours: 2 });
    for (const minutes of [2, 1, 3, 0]) e.completed(run(T0 + minutes * 60_000), T0 + 10 * 60_000);
    e.completed(run(T0, { workflowId: 'wf-2' }), T0);
    expect(e.state.workflows['wf-1']!.runs.map((r) => (r.at - T0) / 60_000)).toEqual([0, 1, 2, 3]);
    expect(e.knownWorkflows()).toEqual(['wf-1', 'wf-2']);
  });

  it('forgets runs older than the longest window (strictly), and keeps at most 10,000', () => {
    const e = engine({ type: 'error_count', count: 100, windowHours: 1 });
    e.completed(run(T0), T0);
    e.completed(run(T0 + 30 * 60_000), T0);
    e.completed(run(T0 + HOUR), T0);
    expect(e.state.workflows['wf-1']!.runs.map((r) => r.at - T0)).toEqual([30 * 60_000, HOUR]);
    e.completed(run(T0 + 3 * HOUR), T0);
    expect(e.state.workflows['wf-1']!.runs.map((r) => r.at - T0)).toEqual([3 * HOUR]);

    const busy = engine({ type: 'error_count', count: 1_000_000, windowHours: 24 });
    for (let i = 0; i <= 10_000; i++) busy.completed(run(T0 + i), T0);
    const runs = busy.state.workflows['wf-1']!.runs;
    expect(runs).toHaveLength(10_000);
    expect([runs[0]!.at - T0, runs.at(-1)!.at - T0]).toEqual([1, 10_000]);
  });

  it('counts a log without a numeric cost as costing nothing', () => {
    const e = engine({ type: 'cost_threshold', cost: 0 });
    const free = { ...run(T0), cost: undefined } as unknown as CompletedLog;
    expect(e.completed(free, T0)).toEqual([]);
    const odd = { ...run(T0), cost: { total: '5' } } as unknown as CompletedLog;
    expect(e.completed(odd, T0)).toEqual([]);
    expect(e.completed(run(T0, { cost: 0.5 }), T0).map((f) => f.reason)).toEqual(['execution cost 0.5, more than 0']);
  });

  it('rebuilds a state read back from JSON as dictionaries, without prototypes', () => {
    const saved = JSON.parse(JSON.stringify(initialRulesState(T0))) as ReturnType<typeof initialRulesState>;
    const e = new RuleEngine([{ type: 'latency_threshold', seconds: 1 }], saved);
    expect(Object.getPrototypeOf(e.state.workflows)).toBeNull();
    expect(Object.getPrototypeOf(e.state.cooldowns)).toBeNull();
    expect(e.state).toBe(saved);
  });
});
