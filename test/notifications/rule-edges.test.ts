import { describe, expect, it } from 'vitest';
import { initialRulesState, RuleEngine } from '../../src/satellites/notifications/rule-engine.js';
import type { AlertRule } from '../../src/satellites/notifications/settings.js';
import { runEndedAt } from './execution-log.js';

/** The alert rules at the exact edges of their windows, and the reasons they give. */
const HOUR = 3_600_000;
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 5, 12);

/** An execution of wf-1 that ended at `at`, at no cost. */
const run = (at: number, options: { failed?: boolean; durationMs?: number } = {}) => runEndedAt(at, { ...options, cost: 0 });

const engine = (rule: AlertRule, since = T0) => new RuleEngine([rule], initialRulesState(since));

/** The reasons the rules give for each run, in order (the engine's clock at the run's end). */
function reasons(e: RuleEngine, runs: [number, { failed?: boolean; durationMs?: number }?][]): string[][] {
  return runs.map(([at, options]) => e.completed(run(at, options), at).map((f) => f.reason));
}

const fail = { failed: true };

describe('windows', () => {
  const errors: AlertRule = { type: 'error_count', count: 1, windowHours: 1 };

  it('leaves out a run that ended exactly one window before (the window is open at its start)', () => {
    expect(reasons(engine(errors), [[T0, fail], [T0 + HOUR, fail]])).toEqual([[], []]);
    expect(reasons(engine(errors), [[T0 + 1, fail], [T0 + HOUR, fail]])).toEqual([[], ['2 errors within 1 h, more than 1']]);
  });

  it('counts an earlier log that ended at the same moment', () => {
    expect(reasons(engine(errors), [[T0, fail], [T0, fail]])).toEqual([[], ['2 errors within 1 h, more than 1']]);
  });

  it('does not count a run that ended after this one (a log that arrived out of order)', () => {
    expect(reasons(engine(errors), [[T0 + 10 * MINUTE, fail], [T0, fail]])).toEqual([[], []]);
  });

  it('rates failures once exactly the full window has been watched', () => {
    const rule: AlertRule = { type: 'failure_rate', percent: 50, windowHours: 1 };
    const start = T0 + HOUR - 4 * MINUTE;
    const fired = reasons(engine(rule), [0, 1, 2, 3, 4].map((k) => [start + k * MINUTE, fail]));
    expect(fired).toEqual([[], [], [], [], ['failure rate 100% over the last 1 h (5 executions) exceeds 50%']]);
  });
});

describe('reasons', () => {
  it('gives a failure rate to one decimal', () => {
    const rule: AlertRule = { type: 'failure_rate', percent: 60, windowHours: 1 };
    const start = T0 + HOUR;
    const runs = [{}, {}, fail, fail, fail, fail].map((o, k): [number, { failed?: boolean }] => [start + k * MINUTE, o]);
    expect(reasons(engine(rule), runs).at(-1)).toEqual(['failure rate 66.7% over the last 1 h (6 executions) exceeds 60%']);
  });

  it('gives a latency spike as the percentage above the average', () => {
    const rule: AlertRule = { type: 'latency_spike', percent: 100, windowHours: 1 };
    const runs = [1_000, 1_000, 1_000, 1_000, 1_000, 2_500].map((durationMs, k): [number, { durationMs: number }] => [T0 + k * MINUTE, { durationMs }]);
    expect(reasons(engine(rule), runs).at(-1)).toEqual(['execution took 2500 ms, 150% above the 1 h average of 1000 ms (threshold 100%)']);
  });
});

describe('runs the engine keeps', () => {
  it('keeps none when no rule has a window', () => {
    const e = engine({ type: 'latency_threshold', seconds: 30 });
    reasons(e, [[T0], [T0 + MINUTE]]);
    expect(e.state.workflows['wf-1']!.runs).toEqual([]);
    expect(e.state.workflows['wf-1']!.lastRunAt).toBe(T0 + MINUTE);
  });

  it('keeps runs that ended at the same moment in the order they arrived', () => {
    const e = engine({ type: 'error_count', count: 100, windowHours: 1 });
    reasons(e, [[T0, fail], [T0], [T0, { durationMs: 7 }]]);
    expect(e.state.workflows['wf-1']!.runs.map((r) => [r.failed, r.durationMs])).toEqual([
      [true, 1_000],
      [false, 1_000],
      [false, 7],
    ]);
  });
});
