import { z } from 'zod';

/** A Data Source name as Tinybird accepts it: letters, digits and underscores, not starting with a digit. */
export const datasourceParam = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a Data Source name has letters, digits and underscores, and does not start with a digit')
  .describe('Data Source name');

const dataSourceRef = z.looseObject({ id: z.string().optional(), name: z.string().optional() });

/** A job as `/v0/jobs/<id>` and the job envelopes describe it; unknown fields are kept. */
export const jobSchema = z
  .looseObject({
    kind: z.string().optional(),
    id: z.string(),
    job_id: z.string().optional(),
    status: z.string(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    started_at: z.string().nullable().optional(),
    is_cancellable: z.boolean().optional(),
    datasource: dataSourceRef.optional(),
    delete_condition: z.string().optional(),
    rows_affected: z.number().optional(),
    error: z.string().optional(),
  })
  .describe('The job record');

export const datasourceRefSchema = dataSourceRef.describe('The Data Source the job works on (id, name, …)');

/** What every job envelope (an import's, a delete's) carries; its ids default to the job's `id`. */
export function jobEnvelope<B extends { id?: string; job_id?: string; job_url?: string; status?: string; job?: unknown }>(
  body: B,
): { id: B['id']; job_id: NonNullable<B['job_id']> | B['id']; job_url: B['job_url']; status: B['status']; job: B['job'] } {
  return { id: body.id, job_id: body.job_id ?? body.id, job_url: body.job_url, status: body.status, job: body.job };
}

/** Statuses after which a job no longer changes. */
export const TERMINAL_JOB_STATUSES: ReadonlySet<string> = new Set(['done', 'error', 'cancelled']);
