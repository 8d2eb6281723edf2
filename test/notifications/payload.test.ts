import { describe, expect, it } from 'vitest';
import { buildCompletedEvent, type CompletedLog } from '../../src/satellites/notifications/payload.js';
import { workflowExecutionCompletedEventSchema } from '../../src/webhooks/index.js';

const log: CompletedLog = {
  id: 'log_abc123',
  workflowId: 'wf-1',
  executionId: 'exec-9',
  level: 'error',
  trigger: 'schedule',
  startedAt: '2026-01-05T12:00:00.000Z',
  endedAt: '2026-01-05T12:00:02.500Z',
  totalDurationMs: 2500,
  cost: { total: 0.012, tokens: { prompt: 10, completion: 5, total: 15 } },
  files: null,
  executionData: { finalOutput: { answer: 42 }, traceSpans: [{ name: 'agent' }] },
};
const limits = {
  workflowExecutionRateLimit: { sync: { requestsPerMinute: 10, maxBurst: 20, remaining: 19, resetAt: '2026-01-05T12:01:00Z' } },
  usage: { currentPeriodCost: 1.5, limit: 10, plan: 'free', isExceeded: false },
};
const none = { includeFinalOutput: false, includeTraceSpans: false, includeRateLimits: false, includeUsageData: false };

describe('workflow.execution.completed payload', () => {
  it('has exactly the spec fields, links included', () => {
    expect(buildCompletedEvent(log, none, 1_767_614_403_000, limits)).toEqual({
      id: 'evt_exec-9',
      type: 'workflow.execution.completed',
      timestamp: 1_767_614_403_000,
      data: {
        workflowId: 'wf-1',
        executionId: 'exec-9',
        status: 'error',
        level: 'error',
        trigger: 'schedule',
        startedAt: '2026-01-05T12:00:00.000Z',
        endedAt: '2026-01-05T12:00:02.500Z',
        totalDurationMs: 2500,
        cost: { total: 0.012, tokens: { prompt: 10, completion: 5, total: 15 } },
        files: null,
      },
      links: { log: '/v1/logs/log_abc123', execution: '/v1/logs/executions/exec-9' },
    });
  });

  it('keeps each id one path segment in the links, whatever it holds', () => {
    const event = buildCompletedEvent({ ...log, id: 'log/../x?y#z', executionId: 'exec 1/2' }, none, 0, limits);
    expect(event.links).toEqual({ log: '/v1/logs/log%2F..%2Fx%3Fy%23z', execution: '/v1/logs/executions/exec%201%2F2' });
  });

  it('adds finalOutput, traceSpans, rateLimits and usage only when asked', () => {
    const event = buildCompletedEvent(
      { ...log, level: 'info' },
      { includeFinalOutput: true, includeTraceSpans: true, includeRateLimits: true, includeUsageData: true },
      0,
      limits,
    );
    expect(event.data.status).toBe('success');
    expect(event.data.finalOutput).toEqual({ answer: 42 });
    expect(event.data.traceSpans).toEqual([{ name: 'agent' }]);
    expect(event.data.rateLimits).toEqual(limits.workflowExecutionRateLimit);
    expect(event.data.usage).toEqual(limits.usage);
    expect(workflowExecutionCompletedEventSchema.safeParse(event).success).toBe(true);
  });

  it('passes the receiver-side schema of flowblocks/webhooks', () => {
    const event = buildCompletedEvent(log, { ...none, includeRateLimits: true, includeUsageData: true }, 1_767_614_403_000);
    expect(workflowExecutionCompletedEventSchema.parse(event)).toEqual(event);
    expect('rateLimits' in event.data).toBe(false); // no limits were reported: left out, not null
  });
});
