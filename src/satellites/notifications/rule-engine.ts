import { dictionaryOf, type Dictionary } from '../../harness/dictionary.js';
import type { CompletedLog } from './payload.js';
import { historyHours, inactivityReason, ruleReason, type Run } from './rules.js';
import type { AlertRule } from './settings.js';

/** Each rule fires at most once an hour per workflow. */
export const COOLDOWN_MS = 3_600_000;

/** Bounds the memory of a very busy workflow; windows need far fewer runs than this. */
const MAX_RUNS_KEPT = 10_000;

/**
 * Bounds the state's workflows, whose ids come from the logs API: past it, the workflow whose
 * last run is oldest is forgotten with its cool-downs (a no_activity rule then counts it idle
 * from the monitor's start again).
 */
export const MAX_WORKFLOWS_KEPT = 10_000;

export interface WorkflowHistory {
  runs: Run[];
  consecutiveFailures: number;
  lastRunAt?: number;
}

/**
 * Everything the rules remember; plain JSON so it is persisted with the rest of the state.
 * Keyed by workflow ids from outside, so both maps are dictionaries (no prototype).
 */
export interface RulesState {
  /** Since when executions have been watched (epoch ms). */
  since: number;
  workflows: Dictionary<WorkflowHistory>;
  /** Last firing time per `<workflowId>|<rule index>:<rule type>`. */
  cooldowns: Dictionary<number>;
}

export interface FiredRule {
  rule: AlertRule['type'];
  reason: string;
}

export function initialRulesState(since: number): RulesState {
  return { since, workflows: dictionaryOf(), cooldowns: dictionaryOf() };
}

function timeOf(iso: string, fallback: number): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? fallback : ms;
}

/**
 * Evaluates the alert rules. Every method is synchronous: the cool-down is checked and
 * claimed with no await in between, so two completions at once cannot both fire a rule.
 */
export class RuleEngine {
  constructor(
    private readonly rules: readonly AlertRule[],
    readonly state: RulesState,
    private readonly maxWorkflows = MAX_WORKFLOWS_KEPT,
  ) {
    // A state read back from JSON has plain objects: rebuilt as dictionaries, in place, so
    // the notifier's document (which holds this same object) is saved from them.
    state.workflows = dictionaryOf(state.workflows);
    state.cooldowns = dictionaryOf(state.cooldowns);
  }

  /** Claims the cool-down of one rule for one workflow; false while it is still running. */
  claimCooldown(workflowId: string, index: number, now: number): boolean {
    const rule = this.rules[index];
    if (!rule) return false;
    const key = `${workflowId}|${index}:${rule.type}`;
    const last = this.state.cooldowns[key];
    // Stryker disable next-line ConditionalExpression: without a last firing, `now - undefined` is NaN and NaN < COOLDOWN_MS is false, so the undefined check only spells that out
    if (last !== undefined && now - last < COOLDOWN_MS) return false;
    this.state.cooldowns[key] = now;
    return true;
  }

  /** Records a completed execution and returns the rules it makes fire (cool-downs claimed). */
  completed(log: CompletedLog, now: number): FiredRule[] {
    let history = this.state.workflows[log.workflowId];
    if (!history) {
      history = this.state.workflows[log.workflowId] = { runs: [], consecutiveFailures: 0 };
      this.forgetBeyondBound(log.workflowId);
    }
    const run: Run = {
      at: timeOf(log.endedAt, now),
      failed: log.level === 'error',
      durationMs: log.totalDurationMs,
    };
    history.consecutiveFailures = run.failed ? history.consecutiveFailures + 1 : 0;
    const input = {
      run,
      cost: typeof log.cost?.total === 'number' ? log.cost.total : 0,
      consecutiveFailures: history.consecutiveFailures,
      history: history.runs,
      watchedSince: this.state.since,
    };
    const fired: FiredRule[] = [];
    this.rules.forEach((rule, index) => {
      const reason = ruleReason(rule, input);
      if (reason && this.claimCooldown(log.workflowId, index, now)) fired.push({ rule: rule.type, reason });
    });
    this.remember(history, run);
    return fired;
  }

  /** The timer check of `no_activity`, over the given workflows. */
  inactive(workflowIds: Iterable<string>, now: number): { workflowId: string; fired: FiredRule }[] {
    const out: { workflowId: string; fired: FiredRule }[] = [];
    this.rules.forEach((rule, index) => {
      // Stryker disable next-line ConditionalExpression: only no_activity rules have `hours`; for any other rule inactivityReason compares with NaN and never fires
      if (rule.type !== 'no_activity') return;
      for (const workflowId of workflowIds) {
        const last = this.state.workflows[workflowId]?.lastRunAt ?? this.state.since;
        const reason = inactivityReason(rule, last, now);
        if (reason && this.claimCooldown(workflowId, index, now)) out.push({ workflowId, fired: { rule: rule.type, reason } });
      }
    });
    return out;
  }

  /** Workflows seen so far (for "all workflows, current and future"). */
  knownWorkflows(): string[] {
    return Object.keys(this.state.workflows);
  }

  /** Past `maxWorkflows`, forgets the workflow whose last run is oldest (never `keep`, just added). */
  private forgetBeyondBound(keep: string): void {
    const ids = Object.keys(this.state.workflows);
    if (ids.length <= this.maxWorkflows) return;
    let oldest: string | undefined;
    let oldestAt = Infinity;
    for (const id of ids) {
      const at = this.state.workflows[id]!.lastRunAt ?? -Infinity;
      if (id !== keep && at < oldestAt) [oldest, oldestAt] = [id, at];
    }
    if (oldest === undefined) return;
    delete this.state.workflows[oldest];
    this.rules.forEach((rule, index) => delete this.state.cooldowns[`${oldest}|${index}:${rule.type}`]);
  }

  private remember(history: WorkflowHistory, run: Run): void {
    history.lastRunAt = Math.max(history.lastRunAt ?? run.at, run.at);
    // Logs may arrive slightly out of order; keep the runs sorted by end time.
    let i = history.runs.length;
    while (i > 0 && history.runs[i - 1]!.at > run.at) i--;
    history.runs.splice(i, 0, run);
    const keepFrom = history.lastRunAt - historyHours(this.rules) * 3_600_000;
    const firstKept = history.runs.findIndex((r) => r.at > keepFrom);
    history.runs.splice(0, firstKept === -1 ? history.runs.length : firstKept);
    if (history.runs.length > MAX_RUNS_KEPT) history.runs.splice(0, history.runs.length - MAX_RUNS_KEPT);
  }
}
