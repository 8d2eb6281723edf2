import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failure, type ToolFailure } from '../../src/harness/errors.js';
import { pollJob, type PollSchedule } from '../../src/harness/define/poll.js';

/**
 * pollJob's contract, on a fake clock: which waits it asks for between reads (growing by
 * `growth` up to `maxDelayMs`, never below the first), and where the time limit ends it for
 * each kind of schedule (give up before a wait that would pass it, or wait out what is left
 * and read once more).
 */
interface Job {
  n: number;
  done: boolean;
}

/** A job that never finishes; `read` fails the test past `maxReads` (a loop that does not end). */
function harness(schedule: PollSchedule, limitMs: number, maxReads = 20) {
  const sleeps: number[] = [];
  let reads = 0;
  const start = Date.now();
  const read = (): Promise<Job> => {
    reads++;
    if (reads > maxReads) throw new Error(`read ${reads} times: the poll does not stop`);
    return Promise.resolve({ n: reads, done: false });
  };
  const timedOut = vi.fn((job: Job): ToolFailure => failure('timeout', `job ${job.n} still running`));
  const run = () =>
    pollJob<Job>({ n: 0, done: false }, read, {
      isDone: (job) => job.done,
      deadline: start + limitMs,
      schedule,
      // The wait passes on the fake clock, so Date.now() moves as it would.
      sleep: (ms) => {
        sleeps.push(ms);
        vi.setSystemTime(Date.now() + ms);
        return Promise.resolve();
      },
      timedOut,
    });
  return { run, sleeps, reads: () => reads, timedOut };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('pollJob', () => {
  it('returns a job that is already done without waiting or reading', async () => {
    const read = vi.fn();
    const sleep = vi.fn();
    const first = { n: 0, done: true };
    const schedule = { firstDelayMs: 100, growth: 2, maxDelayMs: 1000, pollAtDeadline: false };
    expect(await pollJob(first, read, { isDone: (j) => j.done, deadline: Date.now() + 10_000, schedule, sleep, timedOut: () => failure('timeout', 'x') })).toBe(first);
    expect(read).not.toHaveBeenCalled();
    expect(sleep).not.toHaveBeenCalled();
  });

  it('reads until the job is done, each wait the previous one times growth, up to maxDelayMs', async () => {
    let reads = 0;
    const sleeps: number[] = [];
    const schedule = { firstDelayMs: 100, growth: 2, maxDelayMs: 350, pollAtDeadline: false };
    const job = await pollJob(
      { n: 0, done: false },
      () => Promise.resolve({ n: ++reads, done: reads === 5 }),
      {
        isDone: (j) => j.done,
        deadline: Date.now() + 60_000,
        schedule,
        sleep: (ms) => {
          sleeps.push(ms);
          vi.setSystemTime(Date.now() + ms);
          return Promise.resolve();
        },
        timedOut: () => failure('timeout', 'x'),
      },
    );
    expect(job).toEqual({ n: 5, done: true });
    expect(sleeps).toEqual([100, 200, 350, 350, 350]);
  });

  it('never waits less than the first wait, even when maxDelayMs is shorter', async () => {
    const { run, sleeps } = harness({ firstDelayMs: 500, growth: 3, maxDelayMs: 100, pollAtDeadline: false }, 2_000);
    await expect(run()).rejects.toMatchObject({ error: { code: 'timeout' } });
    expect(sleeps).toEqual([500, 500, 500, 500]);
  });

  it('a growth of 1 keeps every wait at the first', async () => {
    const { run, sleeps } = harness({ firstDelayMs: 250, growth: 1, maxDelayMs: 10_000, pollAtDeadline: false }, 1_000);
    await expect(run()).rejects.toMatchObject({ error: { code: 'timeout' } });
    expect(sleeps).toEqual([250, 250, 250, 250]);
  });

  describe('pollAtDeadline: false', () => {
    it('gives up before a wait that would pass the limit, with the failure of the last job read', async () => {
      // 100 ms, then 200 ms ends exactly at the limit (it does not pass it); the next, 400 ms, would.
      const { run, sleeps, reads, timedOut } = harness({ firstDelayMs: 100, growth: 2, maxDelayMs: 10_000, pollAtDeadline: false }, 300);
      await expect(run()).rejects.toMatchObject({ error: { code: 'timeout', message: 'job 2 still running' } });
      expect(sleeps).toEqual([100, 200]);
      expect(reads()).toBe(2);
      expect(timedOut).toHaveBeenCalledTimes(1);
      expect(timedOut).toHaveBeenCalledWith({ n: 2, done: false });
    });

    it('gives up at once when even the first wait would pass the limit', async () => {
      const { run, sleeps, reads, timedOut } = harness({ firstDelayMs: 500, growth: 2, maxDelayMs: 10_000, pollAtDeadline: false }, 499);
      await expect(run()).rejects.toMatchObject({ error: { code: 'timeout', message: 'job 0 still running' } });
      expect(sleeps).toEqual([]);
      expect(reads()).toBe(0);
      expect(timedOut).toHaveBeenCalledWith({ n: 0, done: false });
    });
  });

  describe('pollAtDeadline: true', () => {
    it('waits out what is left of the limit, reads once more, then gives up', async () => {
      // 100 ms, then only 150 of the 200 ms wait are left: waited, read, and no wait of 0 ms after it.
      const { run, sleeps, reads, timedOut } = harness({ firstDelayMs: 100, growth: 2, maxDelayMs: 10_000, pollAtDeadline: true }, 250);
      await expect(run()).rejects.toMatchObject({ error: { code: 'timeout', message: 'job 2 still running' } });
      expect(sleeps).toEqual([100, 150]);
      expect(reads()).toBe(2);
      expect(timedOut).toHaveBeenCalledTimes(1);
      expect(timedOut).toHaveBeenCalledWith({ n: 2, done: false });
    });

    it('a wait that ends exactly at the limit is followed by one last read, not another wait', async () => {
      const { run, sleeps, reads } = harness({ firstDelayMs: 100, growth: 1, maxDelayMs: 100, pollAtDeadline: true }, 300);
      await expect(run()).rejects.toMatchObject({ error: { code: 'timeout', message: 'job 3 still running' } });
      expect(sleeps).toEqual([100, 100, 100]);
      expect(reads()).toBe(3);
    });

    it('returns the job when the last read at the limit finds it done', async () => {
      let reads = 0;
      const sleeps: number[] = [];
      const job = await pollJob(
        { n: 0, done: false },
        () => Promise.resolve({ n: ++reads, done: reads === 2 }),
        {
          isDone: (j) => j.done,
          deadline: Date.now() + 150,
          schedule: { firstDelayMs: 100, growth: 2, maxDelayMs: 10_000, pollAtDeadline: true },
          sleep: (ms) => {
            sleeps.push(ms);
            vi.setSystemTime(Date.now() + ms);
            return Promise.resolve();
          },
          timedOut: () => failure('timeout', 'x'),
        },
      );
      expect(job).toEqual({ n: 2, done: true });
      expect(sleeps).toEqual([100, 50]);
    });
  });
});
