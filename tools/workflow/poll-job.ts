import { z } from 'zod';
import { failure, pollJob, type PollSchedule, type ToolContext } from '../../src/kit.js';
import { TERMINAL_JOB_STATUSES } from './schemas.js';

/** Waits grow by half each poll up to this, so a long job does not spend the rate limit. */
const MAX_POLL_MS = 10_000;
const GROWTH = 1.5;

/** The params of a tool that can wait for a job; the same names on execute and get_job. */
export const pollParams = {
  waitForCompletion: z
    .boolean()
    .default(false)
    .describe('Poll the job until it is completed or failed (or cancelled) and return the final job record'),
  timeoutSeconds: z
    .number()
    .positive()
    .max(3600)
    .default(300)
    .describe('With waitForCompletion: give up after this many seconds in all (the job keeps running)'),
  pollIntervalSeconds: z
    .number()
    .min(0.1)
    .max(60)
    .default(1)
    .describe('With waitForCompletion: the first wait between polls; later waits grow by half, up to 10 s'),
};

export interface JobState {
  taskId: string;
  status: string;
  output?: unknown;
  error?: string;
}

export interface PollSettings {
  timeoutSeconds: number;
  pollIntervalSeconds: number;
  /** When the overall time limit started (the execute call counts). */
  startedAt: number;
  /** Whether a caller may simply call again after the time limit: a read may, an execute may not. */
  retryable: boolean;
}

/**
 * Polls until the job reaches a terminal status. Unknown statuses count as still running
 * (deployments have said `pending` and `unknown`), so only the time limit ends those; the
 * last read comes at the time limit itself.
 */
export function waitForJob(
  first: JobState,
  fetchJob: () => Promise<JobState>,
  ctx: Pick<ToolContext<unknown>, 'sleep'>,
  settings: PollSettings,
): Promise<JobState> {
  const schedule: PollSchedule = { firstDelayMs: settings.pollIntervalSeconds * 1000, growth: GROWTH, maxDelayMs: MAX_POLL_MS, pollAtDeadline: true };
  return pollJob(first, fetchJob, {
    isDone: (job) => TERMINAL_JOB_STATUSES.has(job.status),
    deadline: settings.startedAt + settings.timeoutSeconds * 1000,
    schedule,
    sleep: ctx.sleep,
    timedOut: (job) =>
      failure(
        'timeout',
        `job ${job.taskId} is still ${job.status} after ${settings.timeoutSeconds} s; it keeps running, poll it with workflow_get_job`,
        { retryable: settings.retryable },
      ),
  });
}
