import { z } from 'zod';
import { failure, parseWire, pathIdParam, pathSegment, uiParam, userOnlyParam } from '../../src/kit.js';
import { acceptedExecutionId, acceptedNote, executionIdsHonoured } from './execution-id.js';
import { apiKeyParam, baseUrlParam, connection } from './connection.js';
import { errorText, jobRecord, jobRequest, jobWire } from './get-job.js';
import { pollParams, waitForJob } from './poll-job.js';
import { limitsSchema } from './schemas.js';
import { executionRateLimit } from './rate-limit.js';

const output = z.object({
  success: z
    .boolean()
    .describe(
      'Synchronous: the run succeeded. Asynchronous: the job was accepted. Waited: the job completed. Status accepted: the run was accepted, its outcome is in the logs',
    ),
  output: z.unknown().optional().describe('Workflow results (a synchronous run, or a completed job)'),
  limits: limitsSchema.optional(),
  taskId: z.string().optional().describe('Asynchronous: the job id to poll with Get job'),
  status: z
    .string()
    .optional()
    .describe(
      'Asynchronous: queued; waited: completed, failed or cancelled; accepted: a retry found the first attempt accepted (its answer was lost), read the run from the logs by executionId',
    ),
  executionId: z.string().optional().describe('Execution id, when the platform reports it (for Get execution)'),
  error: z.string().optional().describe('Why the run or the job failed'),
});

type Output = z.input<typeof output>;

/**
 * A run's answer: synchronous with its output, or asynchronous with the job's id. The id and
 * status are read leniently below (deployments say `jobId` and send no status).
 */
const wire = z.looseObject({
  success: z.boolean(),
  output: z.unknown().optional(),
  limits: limitsSchema.optional(),
  executionId: z.string().optional(),
  error: z.unknown().optional(),
  taskId: z.unknown().optional(),
  jobId: z.unknown().optional(),
  status: z.unknown().optional(),
});

/**
 * The execute body. `spec`: `{ inputs, async? }` as spec 000 writes it. `flat`: the inputs
 * are the body, as a Sim deployment reads an API-key caller's body (every field but its
 * control fields becomes an input, so `{ inputs }` would arrive nested and `async` as an input).
 */
function executeBody(p: { inputs: Record<string, unknown>; async: boolean; inputStyle: 'spec' | 'flat' }): Record<string, unknown> {
  if (p.inputStyle === 'flat') return p.inputs;
  return p.async ? { inputs: p.inputs, async: true } : { inputs: p.inputs };
}

export default connection.defineTool({
  id: 'workflow_execute',
  resource: 'Execution',
  name: 'Execute workflow',
  description:
    'Run a deployed workflow with inputs. By default the call waits for the run and returns success, output and limits (a run longer than the call time limit should be asynchronous). With async it returns at once with a taskId and status queued; add waitForCompletion to poll the job until it is completed or failed and return the final job record.',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  // The workflow's page in Sim's editor (app/workspace/[workspaceId]/w/[workflowId]) names its id.
  foundInUrl: { param: 'workflowId', pattern: 'https?://[^/?#]+/workspace/[^/?#]+/w/([^/?#]+)', example: 'https://www.sim.ai/workspace/ws_1/w/wf_1' },
  params: z
    .object({
      base_url: baseUrlParam,
      apiKey: apiKeyParam,
      workflowId: pathIdParam('Id of the deployed workflow to run'),
      inputs: uiParam(z.record(z.string(), z.unknown()).default({}).describe('Workflow inputs as a JSON object'), {
        ui: 'json',
        placeholder: '{"customerId": "c_123"}',
      }),
      async: z.boolean().default(false).describe('Run in the background: return a taskId at once instead of the result'),
      inputStyle: userOnlyParam(
        z
          .enum(['spec', 'flat'])
          .default('spec')
          .describe(
            'How the body carries the inputs: spec sends {"inputs": {...}}, as the platform\'s API reference writes it; flat sends the inputs as the whole body, as a Sim deployment reads it (async then travels in the X-Execution-Mode header only; Sim honours X-Execution-Id, so a run that ends ambiguously is retried with the same id and cannot start twice)',
          ),
      ),
      ...pollParams,
    })
    .refine((p) => p.async || !p.waitForCompletion, {
      path: ['waitForCompletion'],
      message: 'waitForCompletion needs async: true (a synchronous run already waits)',
    }),
  output,
  request: (p, options) => ({
    method: 'POST',
    path: `/api/workflows/${pathSegment(p.workflowId)}/execute`,
    headers: {
      // Deployments read async mode from this header and ignore the body flag: send both (spec).
      'X-Execution-Mode': p.async ? 'async' : undefined,
      // Sim's idempotency header for executions: one key per logical call, the same on every retry.
      'X-Execution-Id': options.idempotencyKey,
    },
    body: { json: executeBody(p) },
    // Where the platform honours the id, a run cannot start twice: an ambiguous end is retried.
    safeToRetry: executionIdsHonoured(p),
  }),
  wire,
  response: ({ body, status }, p): Output => {
    const common = { success: body.success, limits: body.limits, executionId: body.executionId, error: errorText(body.error) };
    if (!p.async) return { ...common, output: body.output };
    // Deployments name the id `jobId` and send no status; the spec says `taskId` and `queued`.
    const taskId = body.taskId ?? body.jobId;
    if (typeof taskId !== 'string' || taskId === '') {
      throw failure('invalid_response', 'the asynchronous execute response has no taskId', { status });
    }
    return { ...common, taskId, status: typeof body.status === 'string' ? body.status : 'queued' };
  },
  run: async (p, ctx) => {
    const startedAt = Date.now();
    let accepted: Output;
    try {
      accepted = await ctx.call(p);
    } catch (error) {
      // A retry refused as a used execution id: the first attempt ran; say so, with its id.
      const executionId = acceptedExecutionId(error, p, ctx.options);
      if (executionId === undefined) throw error;
      ctx.note(acceptedNote(executionId, p.async));
      return { success: true, status: 'accepted', executionId };
    }
    const rateLimit = executionRateLimit(accepted.limits, p.async ? 'async' : 'sync');
    if (rateLimit) ctx.reportRateLimit(rateLimit);
    if (!p.waitForCompletion || accepted.taskId === undefined) return accepted;

    const { taskId } = accepted;
    const fetchJob = async () => jobRecord(parseWire(jobWire, await ctx.send(jobRequest(p, taskId))).body, taskId);
    const job = await waitForJob({ taskId, status: accepted.status ?? 'queued' }, fetchJob, ctx, {
      ...p,
      startedAt,
      // Calling execute again would start a second run.
      retryable: false,
    });
    return {
      success: job.status === 'completed',
      taskId: job.taskId,
      status: job.status,
      output: job.output,
      error: job.error,
      executionId: accepted.executionId,
      limits: accepted.limits,
    };
  },
});
