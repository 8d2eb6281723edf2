/** Response bodies in the shapes spec 000 gives, and where noted the shapes a real deployment sends. */

export const LIMITS = {
  workflowExecutionRateLimit: {
    sync: { requestsPerMinute: 150, maxBurst: 300, remaining: 148, resetAt: '2026-11-22T10:01:00.000Z' },
    async: { requestsPerMinute: 1000, maxBurst: 2000, remaining: 1999, resetAt: '2026-11-22T10:01:00.000Z' },
  },
  usage: { currentPeriodCost: 1.25, limit: 20, plan: 'pro', isExceeded: false },
};

export function logEntry(n: number) {
  return {
    id: `log_${n}`,
    workflowId: 'wf_orders',
    executionId: `exec_${n}`,
    level: n % 3 === 0 ? 'error' : 'info',
    trigger: 'api',
    startedAt: `2026-11-22T09:${String(n).padStart(2, '0')}:00.000Z`,
    endedAt: `2026-11-22T09:${String(n).padStart(2, '0')}:02.500Z`,
    totalDurationMs: 2500,
    cost: { total: 0.0042 },
    files: null,
  };
}

export const LOG_DETAIL = {
  ...logEntry(7),
  workflow: { id: 'wf_orders', name: 'Orders sync', description: 'Copies new orders to the warehouse' },
  executionData: { traceSpans: [{ id: 'span_1', name: 'Agent 1' }], finalOutput: { synced: 12 } },
  cost: {
    total: 0.0042,
    tokens: { prompt: 900, completion: 120, total: 1020 },
    models: { 'gpt-4o': { input: 0.003, output: 0.0012, total: 0.0042, tokens: { prompt: 900, completion: 120, total: 1020 } } },
  },
};

export const EXECUTION_DETAIL = {
  executionId: 'exec_7',
  workflowId: 'wf_orders',
  workflowState: { blocks: { start: { type: 'starter' } }, edges: [{ source: 'start', target: 'agent' }], loops: {}, parallels: {} },
  executionMetadata: {
    trigger: 'api',
    startedAt: '2026-11-22T09:07:00.000Z',
    endedAt: '2026-11-22T09:07:02.500Z',
    totalDurationMs: 2500,
    cost: { total: 0.0042 },
  },
};

export const RATE_HEADERS = {
  'x-ratelimit-limit': '30',
  'x-ratelimit-remaining': '29',
  'x-ratelimit-reset': '2026-11-22T10:01:00.000Z',
};
