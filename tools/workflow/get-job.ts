import { z } from 'zod';
import { defineTool, pathIdParam, pathSegment, type HttpRequestSpec } from '../../src/kit.js';
import { apiKeyParam, baseUrlParam, connection } from './connection.js';
import { pollParams, waitForJob, type JobState } from './poll-job.js';
import { jobFields } from './schemas.js';

/** The job read, shared with workflow_execute's wait: a GET is always safe to repeat. */
export function jobRequest(p: { base_url: string; apiKey: string }, taskId: string): HttpRequestSpec {
  return connection.request(p, {}, { method: 'GET', path: `/api/jobs/${pathSegment(taskId)}`, safeToRetry: true });
}

/** Older deployments sent the job queue's error object instead of a message. */
export function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return JSON.stringify(error);
}

/**
 * A job record as deployments send it. The status is checked here, not only by the output
 * schema: a wait would otherwise poll a shapeless answer until its time limit.
 */
export const jobWire = z.looseObject({
  taskId: z.unknown().optional(),
  status: z.string({ error: 'the job record has no status' }),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
});

/**
 * The job record with the spec's guarantees made true: `output` only when completed, the
 * error only when not. The outcome is read from `status`, never from `success` (a real
 * deployment answers `success: true` for a failed job).
 */
export function jobRecord(body: z.output<typeof jobWire>, taskId: string): JobState {
  const job: JobState = { taskId: typeof body.taskId === 'string' ? body.taskId : taskId, status: body.status };
  if (job.status === 'completed') {
    if (body.output !== undefined) job.output = body.output;
  } else {
    const error = errorText(body.error);
    if (error !== undefined) job.error = error;
  }
  return job;
}

export default defineTool({
  id: 'workflow_get_job',
  resource: 'Execution',
  name: 'Get job',
  description:
    'Read the status of an asynchronous workflow execution by its taskId: queued, processing, completed (with the workflow output) or failed (with the error). With waitForCompletion it polls until the job is completed or failed, or the time limit passes.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: connection.service,
  params: z.object({
    base_url: baseUrlParam,
    apiKey: apiKeyParam,
    taskId: pathIdParam('taskId returned by an asynchronous execute'),
    ...pollParams,
  }),
  output: z.object(jobFields),
  request: (p) => jobRequest(p, p.taskId),
  wire: jobWire,
  response: (res, p) => jobRecord(res.body, p.taskId),
  run: async (p, ctx) => {
    const startedAt = Date.now();
    const fetchJob = () => ctx.call(p);
    const first = await fetchJob();
    if (!p.waitForCompletion) return first;
    return waitForJob(first, fetchJob, ctx, { ...p, startedAt, retryable: true });
  },
});
