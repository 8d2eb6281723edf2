import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { failure } from '../../src/harness/errors.js';
import { pathIdParam, pathSegment } from '../../src/harness/path-segment.js';
import type { HttpRequestSpec, HttpResponse } from '../../src/harness/types.js';
import { pollParams, waitForJob, type JobState } from './poll-job.js';
import { jobFields } from './schemas.js';
import { apiKeyHeaders, apiKeyParam, baseUrlParam, bodyRecord, SERVICE, workflowUrl } from './shared.js';

/** The job read, shared with workflow_execute's wait: a GET is always safe to repeat. */
export function jobRequest(baseUrl: string, apiKey: string, taskId: string): HttpRequestSpec {
  return {
    method: 'GET',
    url: workflowUrl(baseUrl, `/api/jobs/${pathSegment(taskId)}`),
    headers: apiKeyHeaders(apiKey),
    safeToRetry: true,
  };
}

/** Older deployments sent the job queue's error object instead of a message. */
export function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

/**
 * The job record with the spec's guarantees made true: `output` only when completed, the
 * error only when not. The outcome is read from `status`, never from `success` (a real
 * deployment answers `success: true` for a failed job).
 */
export function jobFromResponse(res: HttpResponse, taskId: string): JobState {
  const body = bodyRecord(res.body);
  // Checked here, not only by the output schema: a wait would otherwise poll a shapeless answer until its time limit.
  if (typeof body.status !== 'string') {
    throw failure('invalid_response', 'the job record has no status', { status: res.status });
  }
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
  name: 'Get job',
  description:
    'Read the status of an asynchronous workflow execution by its taskId: queued, processing, completed (with the workflow output) or failed (with the error). With waitForCompletion it polls until the job is completed or failed, or the time limit passes.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: SERVICE,
  params: z.object({
    base_url: baseUrlParam,
    apiKey: apiKeyParam,
    taskId: pathIdParam('taskId returned by an asynchronous execute'),
    ...pollParams,
  }),
  output: z.object(jobFields),
  request: (p) => jobRequest(p.base_url, p.apiKey, p.taskId),
  response: (res, p) => jobFromResponse(res, p.taskId),
  run: async (p, ctx) => {
    const startedAt = Date.now();
    const fetchJob = () => ctx.call(p) as Promise<JobState>;
    const first = await fetchJob();
    if (!p.waitForCompletion) return first;
    return waitForJob(first, fetchJob, ctx, { ...p, startedAt, retryable: true });
  },
});
