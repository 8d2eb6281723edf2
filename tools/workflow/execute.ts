import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { failure } from '../../src/harness/errors.js';
import { uiParam } from '../../src/harness/fields.js';
import { pathIdParam, pathSegment } from '../../src/harness/path-segment.js';
import { errorText, jobFromResponse, jobRequest } from './get-job.js';
import { pollParams, waitForJob } from './poll-job.js';
import { limitsSchema } from './schemas.js';
import { apiKeyHeaders, apiKeyParam, baseUrlParam, bodyRecord, executionRateLimit, SERVICE, workflowUrl } from './shared.js';

const output = z.object({
  success: z
    .boolean()
    .describe('Synchronous: the run succeeded. Asynchronous: the job was accepted. Waited: the job completed'),
  output: z.unknown().optional().describe('Workflow results (a synchronous run, or a completed job)'),
  limits: limitsSchema.optional(),
  taskId: z.string().optional().describe('Asynchronous: the job id to poll with Get job'),
  status: z.string().optional().describe('Asynchronous: queued; waited: completed, failed or cancelled'),
  executionId: z.string().optional().describe('Execution id, when the platform reports it (for Get execution)'),
  error: z.string().optional().describe('Why the run or the job failed'),
});

type Output = z.input<typeof output>;

export default defineTool({
  id: 'workflow_execute',
  name: 'Execute workflow',
  description:
    'Run a deployed workflow with inputs. By default the call waits for the run and returns success, output and limits (a run longer than the call time limit should be asynchronous). With async it returns at once with a taskId and status queued; add waitForCompletion to poll the job until it is completed or failed and return the final job record.',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  service: SERVICE,
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
      ...pollParams,
    })
    .refine((p) => p.async || !p.waitForCompletion, {
      path: ['waitForCompletion'],
      message: 'waitForCompletion needs async: true (a synchronous run already waits)',
    }),
  output,
  request: (p) => ({
    method: 'POST',
    url: workflowUrl(p.base_url, `/api/workflows/${pathSegment(p.workflowId)}/execute`),
    // Deployments read async mode from this header and ignore the body flag: send both.
    headers: { ...apiKeyHeaders(p.apiKey), 'X-Execution-Mode': p.async ? 'async' : undefined },
    body: { json: p.async ? { inputs: p.inputs, async: true } : { inputs: p.inputs } },
  }),
  response: (res, p): Output => {
    const body = bodyRecord(res.body);
    const common = {
      success: body.success as boolean,
      limits: body.limits as Output['limits'],
      executionId: body.executionId as string | undefined,
      error: errorText(body.error),
    };
    if (!p.async) return { ...common, output: body.output };
    // Deployments name the id `jobId` and send no status; the spec says `taskId` and `queued`.
    const taskId = body.taskId ?? body.jobId;
    if (typeof taskId !== 'string' || taskId === '') {
      throw failure('invalid_response', 'the asynchronous execute response has no taskId', { status: res.status });
    }
    return { ...common, taskId, status: typeof body.status === 'string' ? body.status : 'queued' };
  },
  run: async (p, ctx) => {
    const startedAt = Date.now();
    const accepted = (await ctx.call(p)) as Output;
    const rateLimit = executionRateLimit(accepted.limits, p.async ? 'async' : 'sync');
    if (rateLimit) ctx.reportRateLimit(rateLimit);
    if (!p.waitForCompletion || accepted.taskId === undefined) return accepted;

    const { taskId } = accepted;
    const fetchJob = async () => jobFromResponse(await ctx.send(jobRequest(p.base_url, p.apiKey, taskId)), taskId);
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
