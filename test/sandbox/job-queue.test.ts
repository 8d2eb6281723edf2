import { afterEach, expect, it } from 'vitest';
import { JobQueue } from '../../src/satellites/sandbox/tinybird/jobs.js';

let queue: JobQueue | undefined;
afterEach(() => queue?.close());

it('forgets a job 48 hours after it was created, as the Jobs API does', async () => {
  let now = Date.parse('2026-11-22T10:00:00Z');
  queue = new JobQueue({ stepMs: 1, now: () => now });
  const job = queue.submit({ kind: 'delete_data', datasource: { id: 't_1', name: 'events' } }, (id) => `/v0/jobs/${id}`, async () => ({ rows_affected: 0 }));
  expect(job.created_at).toBe('2026-11-22 10:00:00.000000');
  now += 47 * 3600 * 1000;
  expect(queue.get(job.id)?.id).toBe(job.id);
  now += 2 * 3600 * 1000;
  expect(queue.get(job.id)).toBeUndefined();
  expect(queue.list()).toEqual([]);
});
