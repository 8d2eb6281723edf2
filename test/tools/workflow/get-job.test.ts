import { describe, expect, it } from 'vitest';
import { API_KEY, platform } from './setup.js';

const JOB = '/api/jobs/task_42';

describe('workflow_get_job', () => {
  it('GETs /api/jobs/<taskId> and returns a completed job with its output', async () => {
    const wf = platform();
    wf.on('GET', JOB, { status: 200, body: { status: 'completed', output: { synced: 12 } } });
    const result = await wf.run('workflow_get_job', { taskId: 'task_42' });
    expect(wf.requests).toHaveLength(1);
    expect(wf.requests[0]).toMatchObject({ method: 'GET', path: JOB, query: {}, body: undefined });
    expect(wf.requests[0]!.headers['x-api-key']).toBe(API_KEY);
    expect(result).toEqual({
      success: true,
      output: { taskId: 'task_42', status: 'completed', output: { synced: 12 } },
      meta: expect.objectContaining({ status: 200, attempts: 1 }),
    });
  });

  it('returns a failed job with its error and without output', async () => {
    const wf = platform();
    // An older deployment sent the queue's error object, and partial output.
    wf.on('GET', JOB, {
      status: 200,
      body: { success: true, taskId: 'task_42', status: 'failed', output: { partial: true }, error: { message: 'Agent 1: timed out', name: 'Error' } },
    });
    const result = await wf.run('workflow_get_job', { taskId: 'task_42' });
    expect(result).toMatchObject({ success: true, output: { taskId: 'task_42', status: 'failed', error: 'Agent 1: timed out' } });
    expect(result.success && Object.keys(result.output as object)).toEqual(['taskId', 'status', 'error']);
  });

  it('returns a running job as it is, without waiting by default', async () => {
    const wf = platform();
    wf.on('GET', JOB, { status: 200, body: { status: 'processing' } });
    const result = await wf.run('workflow_get_job', { taskId: 'task_42' });
    expect(result).toMatchObject({ success: true, output: { taskId: 'task_42', status: 'processing' } });
    expect(wf.requests).toHaveLength(1);
  });

  it('polls until the job ends when asked to wait; pending counts as still running', async () => {
    const wf = platform();
    wf.on(
      'GET',
      JOB,
      { status: 200, body: { status: 'pending' } },
      { status: 200, body: { status: 'processing' } },
      { status: 200, body: { status: 'cancelled' } },
    );
    const result = await wf.run('workflow_get_job', { taskId: 'task_42', waitForCompletion: true, pollIntervalSeconds: 0.1 });
    expect(wf.requests).toHaveLength(3);
    expect(result).toMatchObject({ success: true, output: { status: 'cancelled' }, meta: { attempts: 3 } });
  });

  it('marks its own time-out retryable: reading again is harmless', async () => {
    const wf = platform();
    wf.on('GET', JOB, { status: 200, body: { status: 'queued' } }, { status: 200, body: { status: 'queued' } });
    const result = await wf.run('workflow_get_job', { taskId: 'task_42', waitForCompletion: true, timeoutSeconds: 0.1, pollIntervalSeconds: 0.1 });
    expect(result).toMatchObject({ success: false, error: { code: 'timeout', retryable: true, message: expect.stringContaining('task_42 is still queued') } });
  });

  it('returns not_found for an unknown or expired job', async () => {
    const wf = platform();
    wf.on('GET', '/api/jobs/nope', { status: 404, body: { error: 'Task not found' } });
    const result = await wf.run('workflow_get_job', { taskId: 'nope' });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', status: 404, message: 'Task not found' } });
  });

  it('reports a record without a status as invalid instead of polling it', async () => {
    const wf = platform();
    wf.on('GET', JOB, { status: 200, body: { success: true } });
    const result = await wf.run('workflow_get_job', { taskId: 'task_42', waitForCompletion: true });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', message: expect.stringContaining('status: the job record has no status') } });
    expect(wf.requests).toHaveLength(1);
  });
});
