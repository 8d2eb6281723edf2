/**
 * The platform's records as spec 000 gives them. Objects are loose: a deployment adds fields
 * (`deploymentVersionId`, `workflow.deleted`, …) that a caller may still want.
 */
import { z } from 'zod';

const bucketSchema = z.looseObject({
  requestsPerMinute: z.number().describe('Sustained rate per minute (token refill rate)'),
  maxBurst: z.number().describe('Maximum burst capacity'),
  remaining: z.number().describe('Tokens available now; may exceed requestsPerMinute, up to maxBurst'),
  resetAt: z.string().describe('ISO 8601 time of the next refill'),
});

export const usageSchema = z.looseObject({
  currentPeriodCost: z.number().describe('Billing-period usage in USD'),
  limit: z.number().describe('Usage limit in USD'),
  plan: z.string().describe('Subscription plan: free, pro, team, enterprise'),
  isExceeded: z.boolean().describe('Whether the usage limit is exceeded'),
});

export const limitsSchema = z
  .looseObject({
    workflowExecutionRateLimit: z.looseObject({ sync: bucketSchema, async: bucketSchema }),
    usage: usageSchema,
  })
  .describe('Execution rate-limit state (sync and async buckets) and billing-period usage');

const tokensSchema = z.looseObject({ prompt: z.number(), completion: z.number(), total: z.number() });

/** The log detail's cost; deployments since May 2026 send only `total`. */
export const costSchema = z
  .looseObject({
    total: z.number(),
    tokens: tokensSchema.optional(),
    models: z
      .record(z.string(), z.looseObject({ input: z.number(), output: z.number(), total: z.number(), tokens: tokensSchema }))
      .optional(),
  })
  .describe('Execution cost: total, and tokens and per-model costs where the deployment reports them');

/** Fields a list entry and a detail share. */
const logFields = {
  id: z.string().describe('Log id'),
  workflowId: z.string(),
  executionId: z.string(),
  level: z.string().describe('info or error'),
  trigger: z.string().describe('api, webhook, schedule, manual or chat'),
  startedAt: z.string().describe('ISO 8601'),
  endedAt: z.string().nullable().optional().describe('ISO 8601'),
  totalDurationMs: z.number().nullable().optional(),
  files: z.unknown().optional(),
};

export const logEntrySchema = z.looseObject({
  ...logFields,
  cost: z.looseObject({ total: z.number() }).nullable().optional(),
});

export const logDetailSchema = z.looseObject({
  ...logFields,
  workflow: z.looseObject({ id: z.string(), name: z.string(), description: z.string().nullable().optional() }).optional(),
  executionData: z
    .looseObject({ traceSpans: z.array(z.unknown()).optional(), finalOutput: z.unknown().optional() })
    .optional(),
  cost: costSchema.nullable().optional(),
  limits: limitsSchema.optional(),
});

export const executionDetailSchema = z.object({
  executionId: z.string(),
  workflowId: z.string(),
  workflowState: z
    .looseObject({
      blocks: z.record(z.string(), z.unknown()),
      edges: z.array(z.unknown()),
      loops: z.record(z.string(), z.unknown()),
      parallels: z.record(z.string(), z.unknown()),
    })
    .describe('Snapshot of the workflow: blocks, edges, loops, parallels'),
  executionMetadata: z
    .looseObject({
      trigger: z.string(),
      startedAt: z.string(),
      endedAt: z.string().nullable().optional(),
      totalDurationMs: z.number().nullable().optional(),
      cost: costSchema.nullable().optional(),
    })
    .describe('Trigger, start and end times, duration and cost'),
  limits: limitsSchema.optional(),
});

/** Statuses after which a job no longer changes; `cancelled` exists on real deployments. */
export const TERMINAL_JOB_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** The job record, normalized: `output` only when completed, `error` as text when it failed. */
export const jobFields = {
  taskId: z.string().describe('Job id to poll'),
  status: z
    .string()
    .describe('queued, processing, completed or failed (real deployments also say pending and cancelled)'),
  output: z.unknown().optional().describe('Workflow results; present only when completed'),
  error: z.string().optional().describe('Why the job failed; present only when it failed'),
};
