import { EVENT_TYPE } from '../../webhooks/index.js';
import type { NotificationSettings } from './settings.js';

export { EVENT_TYPE };

/**
 * An execution as the log API describes it: a `workflow_list_logs` entry or a
 * `workflow_get_log` output's `data`, as the tools return them. One whose `endedAt` is absent or null
 * is still running.
 */
export interface ExecutionLog {
  /** Log identifier. */
  id: string;
  workflowId: string;
  executionId: string;
  level: string;
  trigger: string;
  startedAt: string;
  endedAt?: string | null;
  /** When absent, the time from `startedAt` to `endedAt`. */
  totalDurationMs?: number | null;
  cost?: { total?: number; [key: string]: unknown } | null;
  files?: unknown;
  executionData?: { finalOutput?: unknown; traceSpans?: unknown[] };
  /** The list form with `details=full` carries these beside the entry. */
  finalOutput?: unknown;
  traceSpans?: unknown[];
}

/** An execution that has ended: its end time and duration known. */
export interface CompletedLog extends ExecutionLog {
  endedAt: string;
  totalDurationMs: number;
}

/** The log as a completed execution, or undefined while it is still running (no `endedAt`). */
export function completedLog(log: ExecutionLog): CompletedLog | undefined {
  if (!log.endedAt) return undefined;
  const duration = log.totalDurationMs ?? Date.parse(log.endedAt) - Date.parse(log.startedAt);
  return { ...log, endedAt: log.endedAt, totalDurationMs: Number.isFinite(duration) ? duration : 0 };
}

/** The Limits object of a log response, as far as the payload uses it. */
export interface Limits {
  workflowExecutionRateLimit?: unknown;
  usage?: unknown;
}

export interface CompletedEvent {
  id: string;
  type: typeof EVENT_TYPE;
  timestamp: number;
  data: {
    workflowId: string;
    executionId: string;
    status: 'success' | 'error';
    level: string;
    trigger: string;
    startedAt: string;
    endedAt: string;
    totalDurationMs: number;
    cost: Record<string, unknown>;
    files: unknown;
    finalOutput?: unknown;
    traceSpans?: unknown[];
    rateLimits?: unknown;
    usage?: unknown;
  };
  links: { log: string; execution: string };
}

/** One event per execution, so every channel and every retry carries the same id. */
export function eventIdFor(executionId: string): string {
  return `evt_${executionId}`;
}

/**
 * The spec's `workflow.execution.completed` payload; optional parts only when the settings
 * ask for them. `timestamp` is when the event was created, not when it is sent.
 */
export function buildCompletedEvent(
  log: CompletedLog,
  settings: Pick<NotificationSettings, 'includeFinalOutput' | 'includeTraceSpans' | 'includeRateLimits' | 'includeUsageData'>,
  nowMs: number,
  limits?: Limits,
): CompletedEvent {
  const data: CompletedEvent['data'] = {
    workflowId: log.workflowId,
    executionId: log.executionId,
    status: log.level === 'error' ? 'error' : 'success',
    level: log.level,
    trigger: log.trigger,
    startedAt: log.startedAt,
    endedAt: log.endedAt,
    totalDurationMs: log.totalDurationMs,
    cost: { ...(log.cost ?? { total: 0 }) },
    files: log.files ?? null,
  };
  if (settings.includeFinalOutput) data.finalOutput = log.executionData?.finalOutput ?? log.finalOutput ?? {};
  if (settings.includeTraceSpans) data.traceSpans = log.executionData?.traceSpans ?? log.traceSpans ?? [];
  // Left out, not null, when the response that reported the execution carried no limits.
  if (settings.includeRateLimits && limits?.workflowExecutionRateLimit) data.rateLimits = limits.workflowExecutionRateLimit;
  if (settings.includeUsageData && limits?.usage) data.usage = limits.usage;
  return {
    id: eventIdFor(log.executionId),
    type: EVENT_TYPE,
    timestamp: nowMs,
    data,
    // Ids come from the logs API: encoded, an id with `/`, `?` or `#` stays one path segment.
    links: {
      log: `/v1/logs/${encodeURIComponent(log.id)}`,
      execution: `/v1/logs/executions/${encodeURIComponent(log.executionId)}`,
    },
  };
}
