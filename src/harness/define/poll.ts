import type { ToolFailure } from '../errors.js';

/** How often a job is read while a tool waits for it. */
export interface PollSchedule {
  /** The first wait between two reads, in ms. */
  firstDelayMs: number;
  /** Each wait is the previous one times this, up to `maxDelayMs`, so a long job does not spend the rate limit. */
  growth: number;
  /** The longest wait (never shorter than the first). */
  maxDelayMs: number;
  /**
   * At the end of the time limit: `true` waits out what is left and reads the job once more;
   * `false` gives up as soon as the next wait would pass the limit.
   */
  pollAtDeadline: boolean;
}

export interface PollOptions<J> {
  /** The job no longer changes (each service names its own final statuses). */
  isDone(job: J): boolean;
  /** When to give up, as a `Date.now()` time. */
  deadline: number;
  schedule: PollSchedule;
  /** Waits, abortably (`ctx.sleep`). */
  sleep(ms: number): Promise<void>;
  /** The failure to report when the job outlives the time limit. */
  timedOut(job: J): ToolFailure;
}

/**
 * Reads a job until it is done or the time limit passes; `first` is the read already made.
 * Every tool that waits for a job (Tinybird's imports and deletes, the workflow platform's
 * asynchronous runs) waits with this, each with its own schedule and final statuses.
 */
export async function pollJob<J>(first: J, read: () => Promise<J>, options: PollOptions<J>): Promise<J> {
  const { schedule } = options;
  let delay = schedule.firstDelayMs;
  const maxDelay = Math.max(schedule.maxDelayMs, delay);
  let job = first;
  for (;;) {
    if (options.isDone(job)) return job;
    const left = options.deadline - Date.now();
    if (schedule.pollAtDeadline ? left <= 0 : delay > left) throw options.timedOut(job);
    await options.sleep(Math.min(delay, left));
    delay = Math.min(maxDelay, delay * schedule.growth);
    job = await read();
  }
}
