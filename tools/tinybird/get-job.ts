import { z } from 'zod';
import { defineTool } from '../../src/harness/define-tool.js';
import { failure } from '../../src/harness/errors.js';
import { pathIdParam, pathSegment } from '../../src/harness/path-segment.js';
import { authHeaders, baseUrlParam, jobSchema, SERVICE, TERMINAL_JOB_STATUSES, tinybirdUrl, tokenParam } from './shared.js';

/** Poll steps: start quick, settle at a few seconds so a long job does not eat the rate limit. */
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 5_000;

export default defineTool({
  id: 'tinybird_get_job',
  name: 'Get job',
  description:
    'Read the status of a Tinybird job (an append import or a delete): waiting, working, done, error, cancelling or cancelled. With wait_for_completion it polls until the job ends (done, error or cancelled) or the time limit passes.',
  scopes: ['DATASOURCES:CREATE'],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  service: SERVICE,
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
  request: (p) => ({
    method: 'GET',
    url: tinybirdUrl(p.base_url, `/v0/jobs/${pathSegment(p.job_id)}`),
    headers: authHeaders(p.token),
  }),
  response: (res) => res.body as z.input<typeof jobSchema>,
  run: async (p, ctx) => {
    const deadline = Date.now() + p.timeout_seconds * 1000;
    let delay = FIRST_POLL_MS;
    for (;;) {
      const job = (await ctx.call(p)) as z.input<typeof jobSchema>;
      if (!p.wait_for_completion || TERMINAL_JOB_STATUSES.has(job.status)) return job;
      if (Date.now() + delay > deadline) {
        throw failure('timeout', `job ${p.job_id} is still ${job.status} after ${p.timeout_seconds} s`, { retryable: true });
      }
      await ctx.sleep(delay);
      delay = Math.min(MAX_POLL_MS, delay * 2);
    }
  },
});
