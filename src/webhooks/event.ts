import { z } from 'zod';
import { costSchema } from '../../tools/workflow/schemas.js';
import { EVENT_TYPE } from './names.js';

const isoTime = z.iso.datetime({ offset: true });

/**
 * The `workflow.execution.completed` payload as spec 000 gives it. Objects are loose, so a
 * sender's extra fields (a workflow name, say) reach the receiver instead of being dropped.
 */
export const workflowExecutionCompletedEventSchema = z.looseObject({
  id: z.string().min(1).describe('Event id'),
  type: z.literal(EVENT_TYPE),
  timestamp: z.number().int().nonnegative().describe('Unix time in milliseconds'),
  data: z.looseObject({
    workflowId: z.string(),
    executionId: z.string(),
    status: z.string().describe('success, or error for a failure'),
    level: z.enum(['info', 'error']),
    trigger: z.string().describe('api, webhook, schedule, manual or chat'),
    startedAt: isoTime,
    endedAt: isoTime,
    totalDurationMs: z.number().nonnegative(),
    cost: costSchema,
    files: z.unknown().optional().describe('null, or the files of the execution'),
    finalOutput: z.record(z.string(), z.unknown()).optional().describe('Only with includeFinalOutput'),
    traceSpans: z.array(z.unknown()).optional().describe('Only with includeTraceSpans'),
    rateLimits: z.record(z.string(), z.unknown()).optional().describe('Only with includeRateLimits'),
    usage: z.record(z.string(), z.unknown()).optional().describe('Only with includeUsageData'),
  }),
  // Optional on receipt: the one real sender of this event never sent it (see docs/webhooks.md).
  // Our senders always do; when present, it must have the spec's shape.
  links: z
    .looseObject({
      log: z.string().regex(/^\/v1\/logs\/[^/]+$/, 'a path of the form /v1/logs/<log_id>'),
      execution: z.string().regex(/^\/v1\/logs\/executions\/[^/]+$/, 'a path of the form /v1/logs/executions/<execution_id>'),
    })
    .optional()
    .describe('Paths of the log entry and the execution in the logs API; absent from some deployments'),
});

export type WorkflowExecutionCompletedEvent = z.output<typeof workflowExecutionCompletedEventSchema>;
