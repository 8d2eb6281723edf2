import type { CompletedLog } from '../../src/satellites/notifications/payload.js';

export const T0 = Date.UTC(2026, 0, 5, 12);
let seq = 0;

/** A completed execution at T0 (1 s, info, api), numbered afresh on each call unless `n` is given. */
export function executionLog(options: Partial<CompletedLog> & { n?: number } = {}): CompletedLog {
  const { n = ++seq, ...rest } = options;
  return {
    id: `log-${n}`,
    workflowId: 'wf-1',
    executionId: `exec-${n}`,
    level: 'info',
    trigger: 'api',
    startedAt: new Date(T0).toISOString(),
    endedAt: new Date(T0 + 1000).toISOString(),
    totalDurationMs: 1000,
    cost: { total: 0.01 },
    ...rest,
  };
}

/** An execution of wf-1 that ended at `at` (an alert rule's view of it: outcome, duration, cost). */
export function runEndedAt(at: number, options: { failed?: boolean; durationMs?: number; cost?: number; workflowId?: string } = {}): CompletedLog {
  const { failed = false, durationMs = 1_000, cost = 0.001, workflowId = 'wf-1' } = options;
  return executionLog({
    workflowId,
    level: failed ? 'error' : 'info',
    startedAt: new Date(at - durationMs).toISOString(),
    endedAt: new Date(at).toISOString(),
    totalDurationMs: durationMs,
    cost: { total: cost },
  });
}
