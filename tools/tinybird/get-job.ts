import { z } from 'zod';
import { failure, pathIdParam, pathSegment, pollJob, type PollSchedule } from '../../src/kit.js';
import { baseUrlParam, connection, tokenParam } from './connection.js';
import { jobSchema, TERMINAL_JOB_STATUSES } from './params.js';

/**
 * Start quick, settle at a few seconds so a long job does not eat the rate limit; give up as
 * soon as the next read would come after the time limit.
 */
const POLL_SCHEDULE: PollSchedule = { firstDelayMs: 500, growth: 2, maxDelayMs: 5_000, pollAtDeadline: false };

export default connection.defineTool({
  id: 'tinybird_get_job',
  resource: 'Job',
  name: 'Get job',
  description:
    'Read the status of a Tinybird job (an append import or a delete): waiting, working, done, error, cancelling or cancelled. With wait_for_completion it polls until the job ends (done, error or cancelled) or the time limit passes.',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({
    base_url: baseUrlParam,
    token: tokenParam,
    job_id: pathIdParam('Job id from an append or delete'),
    wait_for_completion: z.boolean().default(false).describe('Poll until the job is done, error or cancelled'),
    timeout_seconds: z
      .number()
      .positive()
      .max(3600)
      .default(300)
      .describe('With wait_for_completion: give up after this many seconds'),
  }),
  output: jobSchema,
  request: (p) => ({ method: 'GET', path: `/v0/jobs/${pathSegment(p.job_id)}` }),
  wire: jobSchema,
  response: (res) => res.body,
  run: async (p, ctx) => {
    const deadline = Date.now() + p.timeout_seconds * 1000;
    const first = await ctx.call(p);
    if (!p.wait_for_completion) return first;
    return pollJob(first, () => ctx.call(p), {
      isDone: (job) => TERMINAL_JOB_STATUSES.has(job.status),
      deadline,
      schedule: POLL_SCHEDULE,
      sleep: ctx.sleep,
      timedOut: (job) => failure('timeout', `job ${p.job_id} is still ${job.status} after ${p.timeout_seconds} s`, { retryable: true }),
    });
  },
});
