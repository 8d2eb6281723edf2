import type { AlertRule } from './settings.js';

const HOUR_MS = 3_600_000;

/** Alert rules need at least this many executions in a window (spec: "at least 5"). */
export const MIN_WINDOW_EXECUTIONS = 5;

/** One finished execution as the rules remember it. */
export interface Run {
  /** When it ended (epoch ms). */
  at: number;
  failed: boolean;
  durationMs: number;
}

/** What a rule sees when an execution completes. */
export interface RuleInput {
  run: Run;
  cost: number;
  /** Consecutive failures up to and including this run (0 after a success). */
  consecutiveFailures: number;
  /** Earlier runs of the same workflow, oldest first, this run not included. */
  history: readonly Run[];
  /** Since when this workflow has been watched (epoch ms). */
  watchedSince: number;
}

function inWindow(history: readonly Run[], end: number, hours: number): Run[] {
  const start = end - hours * HOUR_MS;
  return history.filter((run) => run.at > start && run.at <= end);
}

const pct = (n: number) => `${Math.round(n * 10) / 10}%`;

/**
 * Checks one rule against one completed execution: the reason it fires, or undefined.
 * `no_activity` is not about an execution; see `inactivityReason`.
 */
export function ruleReason(rule: AlertRule, input: RuleInput): string | undefined {
  const { run } = input;
  switch (rule.type) {
    case 'consecutive_failures':
      return run.failed && input.consecutiveFailures >= rule.count
        ? `${input.consecutiveFailures} consecutive failed executions (threshold ${rule.count})`
        : undefined;
    case 'failure_rate': {
      // "Only after the full window has elapsed": watched for at least the window's length.
      if (!run.failed || run.at - input.watchedSince < rule.windowHours * HOUR_MS) return undefined;
      const runs = [...inWindow(input.history, run.at, rule.windowHours), run];
      if (runs.length < MIN_WINDOW_EXECUTIONS) return undefined;
      const rate = (runs.filter((r) => r.failed).length / runs.length) * 100;
      return rate > rule.percent
        ? `failure rate ${pct(rate)} over the last ${rule.windowHours} h (${runs.length} executions) exceeds ${rule.percent}%`
        : undefined;
    }
    case 'latency_threshold':
      return run.durationMs > rule.seconds * 1000
        ? `execution took ${run.durationMs} ms, more than ${rule.seconds} s`
        : undefined;
    case 'latency_spike': {
      // The baseline is the window's earlier executions: the spike must not dilute its own average.
      const baseline = inWindow(input.history, run.at, rule.windowHours);
      if (baseline.length < MIN_WINDOW_EXECUTIONS) return undefined;
      const average = baseline.reduce((sum, r) => sum + r.durationMs, 0) / baseline.length;
      return run.durationMs > average * (1 + rule.percent / 100)
        ? `execution took ${run.durationMs} ms, ${pct((run.durationMs / average - 1) * 100)} above the ${rule.windowHours} h average of ${Math.round(average)} ms (threshold ${rule.percent}%)`
        : undefined;
    }
    case 'cost_threshold':
      return input.cost > rule.cost ? `execution cost ${input.cost}, more than ${rule.cost}` : undefined;
    case 'error_count': {
      if (!run.failed) return undefined;
      const errors = [...inWindow(input.history, run.at, rule.windowHours), run].filter((r) => r.failed).length;
      return errors > rule.count
        ? `${errors} errors within ${rule.windowHours} h, more than ${rule.count}`
        : undefined;
    }
    case 'no_activity':
      return undefined;
  }
}

/** The `no_activity` check, made on a timer: the reason when nothing ran for the rule's hours. */
export function inactivityReason(rule: Extract<AlertRule, { type: 'no_activity' }>, lastActivity: number, now: number): string | undefined {
  const idleMs = now - lastActivity;
  return idleMs > rule.hours * HOUR_MS
    ? `no executions for ${Math.floor(idleMs / 60_000)} min (threshold ${rule.hours} h)`
    : undefined;
}

/** How long a workflow's runs must be kept for these rules. */
export function historyHours(rules: readonly AlertRule[]): number {
  return Math.max(0, ...rules.map((rule) => ('windowHours' in rule ? rule.windowHours : 0)));
}
