import type { ExecutionLog } from '../../src/notifications/payload.js';

export const T0 = Date.UTC(2026, 0, 5, 12);
let seq = 0;

/** A completed execution at T0 (1 s, info, api), numbered afresh on each call unless `n` is given. */
export function executionLog(options: Partial<ExecutionLog> & { n?: number } = {}): ExecutionLog {
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
