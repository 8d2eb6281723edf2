import { randomUUID } from 'node:crypto';

export type JobStatus = 'waiting' | 'working' | 'done' | 'error' | 'cancelling' | 'cancelled';

export interface Job {
  kind: 'import' | 'delete_data';
  id: string;
  job_id: string;
  status: JobStatus;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  is_cancellable: boolean;
  datasource: { id: string; name: string };
  job_url: string;
  error?: string;
  [field: string]: unknown;
}

/** Jobs are forgotten after 48 hours, as the Jobs API does. */
const RETENTION_MS = 48 * 3600 * 1000;

/** `YYYY-MM-DD HH:MM:SS.ffffff`, the service's job timestamp format (UTC, no zone). */
export function jobTime(date = new Date()): string {
  return `${date.toISOString().slice(0, 23).replace('T', ' ')}000`;
}

export interface JobOptions {
  /** How long a job stays in each of `waiting` and `working` before it moves on. */
  stepMs: number;
  now?: () => number;
}

/**
 * The workspace's job queue: each job moves `waiting` → `working` → `done` | `error`
 * over time, one step every `stepMs`, so pollers see the real sequence.
 */
export class JobQueue {
  private readonly jobs = new Map<string, { job: Job; createdMs: number }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly now: () => number;

  constructor(private readonly options: JobOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Queues work; `run` returns the fields the finished job adds (e.g. `rows_affected`). */
  submit(
    fields: { kind: Job['kind']; datasource: Job['datasource']; [field: string]: unknown },
    jobUrl: (id: string) => string,
    run: () => Promise<Record<string, unknown>>,
  ): Job {
    const id = randomUUID();
    const created = jobTime(new Date(this.now()));
    const job: Job = {
      ...fields,
      id,
      job_id: id,
      status: 'waiting',
      created_at: created,
      updated_at: created,
      started_at: null,
      is_cancellable: true,
      job_url: jobUrl(id),
    };
    this.jobs.set(id, { job, createdMs: this.now() });
    this.later(async () => {
      if (job.status !== 'waiting') return;
      this.update(job, { status: 'working', started_at: jobTime(new Date(this.now())), is_cancellable: false });
      let outcome: Partial<Job>;
      try {
        outcome = { status: 'done', ...(await run()) };
      } catch (error) {
        outcome = { status: 'error', error: (error as Error).message };
      }
      this.later(async () => this.update(job, outcome));
    });
    return job;
  }

  get(id: string): Job | undefined {
    const entry = this.jobs.get(id);
    if (!entry) return undefined;
    if (this.now() - entry.createdMs > RETENTION_MS) {
      this.jobs.delete(id);
      return undefined;
    }
    return entry.job;
  }

  list(): Job[] {
    return [...this.jobs.keys()].map((id) => this.get(id)).filter((job): job is Job => job !== undefined).slice(-100);
  }

  /** Jobs of a kind that have not finished. */
  active(kind: Job['kind']): number {
    return this.list().filter((job) => job.kind === kind && (job.status === 'waiting' || job.status === 'working')).length;
  }

  /** Cancels a waiting job; the service answers 400 for any other state. */
  cancel(job: Job): string | undefined {
    if (job.status === 'cancelling' || job.status === 'cancelled') return 'Job is already being cancelled';
    if (job.status !== 'waiting') return 'Job is not in cancellable status';
    this.update(job, { status: 'cancelling', is_cancellable: false });
    this.later(async () => this.update(job, { status: 'cancelled' }));
    return undefined;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private update(job: Job, fields: Partial<Job>): void {
    Object.assign(job, fields, { updated_at: jobTime(new Date(this.now())) });
  }

  private later(step: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void step();
    }, this.options.stepMs);
    this.timers.add(timer);
  }
}
