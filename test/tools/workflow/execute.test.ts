import { describe, expect, it } from 'vitest';
import { LIMITS } from './fixtures.js';
import { API_KEY, jsonOf, platform } from './setup.js';

const EXECUTE = '/api/workflows/wf_orders/execute';
const JOB = '/api/jobs/task_42';

describe('workflow_execute, synchronous', () => {
  it('POSTs the inputs with the API key and returns success, output and limits', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 200, body: { success: true, output: { synced: 12 }, limits: LIMITS } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', inputs: { since: '2026-11-01' } });

    expect(wf.requests).toHaveLength(1);
    const [req] = wf.requests;
    expect(req).toMatchObject({ method: 'POST', path: EXECUTE, query: {} });
    expect(req!.headers['x-api-key']).toBe(API_KEY);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-execution-mode']).toBeUndefined();
    expect(jsonOf(req!.body)).toEqual({ inputs: { since: '2026-11-01' } });
    expect(result).toEqual({
      success: true,
      output: { success: true, output: { synced: 12 }, limits: LIMITS },
      meta: expect.objectContaining({ status: 200, attempts: 1 }),
    });
    // The body's sync bucket stands in for the rate-limit headers the execute call does not send.
    expect(result.meta.rateLimit).toEqual({ limit: 150, remaining: 148, resetAt: '2026-11-22T10:01:00.000Z' });
  });

  it('sends an empty inputs object by default and escapes the workflow id', async () => {
    const wf = platform();
    wf.on('POST', '/api/workflows/wf%2F1/execute', { status: 200, body: { success: true, output: {} } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf/1' });
    expect(jsonOf(wf.requests[0]!.body)).toEqual({ inputs: {} });
    expect(result).toMatchObject({ success: true, output: { success: true, output: {} } });
    expect(result.meta.rateLimit).toBeUndefined();
  });

  it('keeps the executionId and error a deployment adds', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 200, body: { success: false, executionId: 'exec_9', output: {}, error: 'Agent 1: no model' } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders' });
    expect(result).toMatchObject({ success: true, output: { success: false, executionId: 'exec_9', error: 'Agent 1: no model' } });
  });

  it('returns the service message and field errors of a 400', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, {
      status: 400,
      body: { error: 'Invalid request parameters', details: [{ path: ['inputs', 'since'], message: 'Expected a date' }] },
    });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', inputs: { since: 'soon' } });
    expect(result).toMatchObject({
      success: false,
      error: {
        code: 'bad_request',
        status: 400,
        message: 'Invalid request parameters',
        issues: [{ path: 'inputs.since', message: 'Expected a date' }],
      },
    });
  });

  it('does not repeat a run after a 500, but does after a 429', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 500, body: { success: false, error: 'Failed to queue async execution' } });
    const failed = await wf.run('workflow_execute', { workflowId: 'wf_orders' });
    expect(failed).toMatchObject({ success: false, error: { code: 'upstream_error', retryable: false }, meta: { attempts: 1 } });

    // A deployment's execute 429 has no Retry-After: backoff decides the wait.
    wf.on('POST', EXECUTE, { status: 429, body: { error: 'Rate limit exceeded. Please try again later.' } }, { status: 200, body: { success: true, output: {} } });
    const retried = await wf.run('workflow_execute', { workflowId: 'wf_orders' });
    expect(retried).toMatchObject({ success: true, meta: { attempts: 2 } });
    expect(wf.requests).toHaveLength(3);
  });

  it('keeps the API key out of a result that echoes it', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 401, body: { error: `Invalid API key ${API_KEY}` } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders' });
    expect(result).toMatchObject({ success: false, error: { code: 'unauthorized', message: 'Invalid API key [redacted]' } });
    expect(JSON.stringify(result)).not.toContain(API_KEY);
  });

  it('refuses waitForCompletion without async, before sending', async () => {
    const wf = platform();
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', waitForCompletion: true });
    expect(wf.requests).toHaveLength(0);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'waitForCompletion' }] } });
  });
});

describe('workflow_execute, asynchronous', () => {
  it('sends async in the body and the mode header, and returns taskId and queued', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 202, body: { success: true, taskId: 'task_42', status: 'queued', limits: LIMITS } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', inputs: { n: 1 }, async: true });
    const [req] = wf.requests;
    expect(req!.headers['x-execution-mode']).toBe('async');
    expect(req!.headers['x-api-key']).toBe(API_KEY);
    expect(jsonOf(req!.body)).toEqual({ inputs: { n: 1 }, async: true });
    expect(result).toMatchObject({ success: true, output: { success: true, taskId: 'task_42', status: 'queued' } });
    expect(result.meta.rateLimit).toEqual({ limit: 1000, remaining: 1999, resetAt: '2026-11-22T10:01:00.000Z' });
    expect(wf.requests).toHaveLength(1);
  });

  it("reads a deployment's jobId and missing status as taskId and queued", async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, {
      status: 202,
      body: { success: true, async: true, jobId: 'run_abc', executionId: 'exec_1', message: 'Workflow execution queued', statusUrl: 'https://workflows.example.com/api/jobs/run_abc' },
    });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', async: true });
    expect(result).toMatchObject({ success: true, output: { success: true, taskId: 'run_abc', status: 'queued', executionId: 'exec_1' } });
  });

  it('reports an accepted response without any job id as invalid', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 202, body: { success: true } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', async: true });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', status: 202 } });
  });

  it('waits through queued and processing to completed, and returns the final job record', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 202, body: { success: true, taskId: 'task_42', status: 'queued' } });
    wf.on(
      'GET',
      JOB,
      { status: 200, body: { status: 'processing' } },
      { status: 200, body: { status: 'completed', output: { synced: 12 } } },
    );
    const result = await wf.run('workflow_execute', {
      workflowId: 'wf_orders',
      async: true,
      waitForCompletion: true,
      pollIntervalSeconds: 0.1,
    });

    expect(wf.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${EXECUTE}`, `GET ${JOB}`, `GET ${JOB}`]);
    for (const poll of wf.requests.slice(1)) {
      expect(poll.headers['x-api-key']).toBe(API_KEY);
      expect(poll.body).toBeUndefined();
    }
    expect(result).toEqual({
      success: true,
      output: { success: true, taskId: 'task_42', status: 'completed', output: { synced: 12 } },
      meta: expect.objectContaining({ status: 200, attempts: 3 }),
    });
  });

  it('returns a failed job as a result with its error, judged by status not success', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 202, body: { success: true, jobId: 'task_42', executionId: 'exec_5' } });
    // A deployment answers success: true for a failed job.
    wf.on('GET', JOB, { status: 200, body: { success: true, taskId: 'task_42', status: 'failed', error: 'Agent 1: quota exceeded' } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', async: true, waitForCompletion: true, pollIntervalSeconds: 0.1 });
    expect(result).toMatchObject({
      success: true,
      output: { success: false, taskId: 'task_42', status: 'failed', error: 'Agent 1: quota exceeded', executionId: 'exec_5' },
    });
    expect(result.success && (result.output as Record<string, unknown>).output).toBeUndefined();
  });

  it('gives up after timeoutSeconds, naming the job so it can still be polled', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 202, body: { success: true, taskId: 'task_42', status: 'queued' } });
    wf.pool
      .intercept({ method: 'GET', path: JOB })
      .reply(200, { status: 'processing' }, { headers: { 'content-type': 'application/json' } })
      .persist();
    const started = Date.now();
    const result = await wf.run('workflow_execute', {
      workflowId: 'wf_orders',
      async: true,
      waitForCompletion: true,
      timeoutSeconds: 0.3,
      pollIntervalSeconds: 0.1,
    });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result).toMatchObject({
      success: false,
      error: { code: 'timeout', retryable: false, message: expect.stringContaining('job task_42 is still processing after 0.3 s') },
    });
    // Waits of 100, 150 and what is left of the 300 ms: three polls after the execute call
    // (a fourth when a timer fires a millisecond early by the wall clock).
    expect(result.meta.attempts).toBeGreaterThanOrEqual(4);
    expect(result.meta.attempts).toBeLessThanOrEqual(5);
  });

  it('stops waiting when the caller aborts', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 202, body: { success: true, taskId: 'task_42', status: 'queued' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const result = await wf.run(
      'workflow_execute',
      { workflowId: 'wf_orders', async: true, waitForCompletion: true, pollIntervalSeconds: 30 },
      { signal: controller.signal },
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({ success: false, error: { code: 'aborted' } });
    expect(wf.requests).toHaveLength(1);
  });

  it('retries a poll that meets a 503, since reading a job is safe', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 202, body: { success: true, taskId: 'task_42', status: 'queued' } });
    wf.on('GET', JOB, { status: 503, body: { error: 'unavailable' } }, { status: 200, body: { status: 'completed', output: { ok: true } } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', async: true, waitForCompletion: true, pollIntervalSeconds: 0.1 });
    expect(result).toMatchObject({ success: true, output: { status: 'completed', output: { ok: true } }, meta: { attempts: 3 } });
  });
});

describe('workflow_execute, input style and X-Execution-Id', () => {
  it('flat sends the inputs as the whole body (as Sim reads it) and async in the header only', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 202, body: { success: true, taskId: 'task_42', status: 'queued' } });
    await wf.run('workflow_execute', { workflowId: 'wf_orders', inputs: { since: '2026-11-01' }, async: true, inputStyle: 'flat' });
    const [req] = wf.requests;
    expect(jsonOf(req!.body)).toEqual({ since: '2026-11-01' });
    expect(req!.headers['x-execution-mode']).toBe('async');
  });

  it('sends one X-Execution-Id per call, the same on the retry after a 429; the caller may give it', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 429, body: { error: 'Rate limit exceeded' } });
    wf.on('POST', EXECUTE, { status: 200, body: { success: true, output: {} } });
    wf.on('POST', EXECUTE, { status: 200, body: { success: true, output: {} } });
    await wf.run('workflow_execute', { workflowId: 'wf_orders' });
    await wf.run('workflow_execute', { workflowId: 'wf_orders' }, { idempotencyKey: 'exec-given-1' });
    const ids = wf.requests.map((r) => r.headers['x-execution-id']);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids.slice(0, -1).every((id) => id === ids[0])).toBe(true);
    expect(ids.at(-1)).toBe('exec-given-1');
  });
});

/** Sim's answer to a used X-Execution-Id (apps/sim/app/api/workflows/[id]/execute/route.ts). */
const conflict = (executionId: string) => ({
  status: 409,
  body: { error: 'Execution ID has already been used', code: 'EXECUTION_ID_CONFLICT', executionId },
});

describe('workflow_execute on a platform that honours X-Execution-Id (flat)', () => {
  it.each([
    ['502', { status: 502, body: { error: 'Bad Gateway' } }],
    ['503', { status: 503, body: { error: 'Async execution queue acceptance could not be confirmed', code: 'ASYNC_ENQUEUE_AMBIGUOUS' } }],
  ])('retries a run that ended with a %s, with the same id and body; a 200 then is the result', async (_name, ambiguous) => {
    const wf = platform();
    wf.on('POST', EXECUTE, ambiguous, { status: 200, body: { success: true, output: { synced: 3 }, executionId: 'exec-given-2' } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', inputs: { since: '2026-11-01' }, inputStyle: 'flat' }, { idempotencyKey: 'exec-given-2' });
    expect(wf.requests.map((r) => [r.method, r.path, r.headers['x-execution-id'], jsonOf(r.body)])).toEqual([
      ['POST', EXECUTE, 'exec-given-2', { since: '2026-11-01' }],
      ['POST', EXECUTE, 'exec-given-2', { since: '2026-11-01' }],
    ]);
    expect(result).toEqual({
      success: true,
      output: { success: true, output: { synced: 3 }, executionId: 'exec-given-2' },
      meta: expect.objectContaining({ status: 200, attempts: 2 }),
    });
  });

  it('a 409 EXECUTION_ID_CONFLICT on the retry after a time-out: accepted, with the execution id and where the result is', async () => {
    const wf = platform();
    // The first answer comes after the time limit (the run went on); the retry meets the used id.
    wf.on('POST', EXECUTE, { status: 200, body: { success: true, output: {} }, delayMs: 1000 }, conflict('exec-sync-1'));
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', inputStyle: 'flat' }, { idempotencyKey: 'exec-sync-1', timeoutMs: 50 });
    expect(wf.requests.map((r) => [r.method, r.path, r.headers['x-execution-id']])).toEqual([
      ['POST', EXECUTE, 'exec-sync-1'],
      ['POST', EXECUTE, 'exec-sync-1'],
    ]);
    expect(result).toEqual({
      success: true,
      output: { success: true, status: 'accepted', executionId: 'exec-sync-1' },
      meta: expect.objectContaining({ status: 409, attempts: 2, notes: [expect.any(String)] }),
    });
    const note = result.meta.notes![0]!;
    expect(note).toContain('409 EXECUTION_ID_CONFLICT for its own X-Execution-Id exec-sync-1: the first attempt was accepted');
    expect(note).toContain('Its result: Get execution (executionId exec-sync-1), or List logs (executionId exec-sync-1)');
  });

  it('an async run whose connection was cut, then 409 on the retry: accepted with the made id, nothing waited for', async () => {
    const wf = platform();
    wf.failConnection('POST', EXECUTE);
    wf.on('POST', EXECUTE, { status: 409, body: { error: 'Execution ID has already been used', code: 'EXECUTION_ID_CONFLICT' } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', async: true, waitForCompletion: true, inputStyle: 'flat' });
    // The cut attempt is not recorded by the mock; the retry carries the id the call made.
    const [retry] = wf.requests;
    expect(retry!.headers['x-execution-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry!.headers['x-execution-mode']).toBe('async');
    expect(result).toMatchObject({
      success: true,
      output: { success: true, status: 'accepted', executionId: retry!.headers['x-execution-id'] },
      meta: { attempts: 2, notes: [expect.stringContaining('find the run with List logs')] },
    });
    expect(wf.requests).toHaveLength(1);
  });

  it('the same 409 on the first attempt is the caller reusing an id: conflict, not accepted', async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, conflict('exec-used'));
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders', inputStyle: 'flat' }, { idempotencyKey: 'exec-used' });
    expect(result).toMatchObject({ success: false, error: { code: 'conflict', status: 409, message: 'Execution ID has already been used' }, meta: { attempts: 1 } });
  });

  it("the spec's platform (no such id): a 502 is not retried, a run is never sent twice", async () => {
    const wf = platform();
    wf.on('POST', EXECUTE, { status: 502, body: { error: 'Bad Gateway' } });
    const result = await wf.run('workflow_execute', { workflowId: 'wf_orders' });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 502, retryable: false }, meta: { attempts: 1 } });
    expect(wf.requests).toHaveLength(1);
  });
});
