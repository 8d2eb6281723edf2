import { describe, expect, it } from 'vitest';
import { EXECUTION_DETAIL, LIMITS, LOG_DETAIL, RATE_HEADERS } from './fixtures.js';
import { API_KEY, platform } from './setup.js';

describe('workflow_get_log', () => {
  it('GETs /api/v1/logs/<id> and returns the detail with limits inside data, as the spec has it', async () => {
    const wf = platform();
    wf.on('GET', '/api/v1/logs/log_7', { status: 200, body: { data: { ...LOG_DETAIL, limits: LIMITS } }, headers: RATE_HEADERS });
    const result = await wf.run('workflow_get_log', { id: 'log_7' });
    expect(wf.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/logs/log_7', query: {}, body: undefined });
    expect(wf.requests[0]!.headers['x-api-key']).toBe(API_KEY);
    expect(result).toEqual({
      success: true,
      output: { data: { ...LOG_DETAIL, limits: LIMITS } },
      meta: expect.objectContaining({ status: 200, rateLimit: { limit: 30, remaining: 29, resetAt: '2026-11-22T10:01:00.000Z' } }),
    });
  });

  it('moves limits sent beside data to where the spec puts them, keeping extra fields', async () => {
    const wf = platform();
    const detail = { ...LOG_DETAIL, cost: { total: 0.0042 }, deploymentVersionId: 'dv_3', createdAt: '2026-11-22T09:07:03.000Z' };
    wf.on('GET', '/api/v1/logs/log_7', { status: 200, body: { data: detail, limits: LIMITS } });
    const result = await wf.run('workflow_get_log', { id: 'log_7' });
    expect(result).toMatchObject({ success: true, output: { data: { ...detail, limits: LIMITS } } });
  });

  it('returns not_found for a log outside the workspace', async () => {
    const wf = platform();
    wf.on('GET', '/api/v1/logs/log_x', { status: 404, body: { error: 'Log not found' } });
    const result = await wf.run('workflow_get_log', { id: 'log_x' });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', status: 404, message: 'Log not found', retryable: false } });
  });

  it('reports a detail without its required fields as invalid', async () => {
    const wf = platform();
    wf.on('GET', '/api/v1/logs/log_7', { status: 200, body: { data: { id: 'log_7' } } });
    const result = await wf.run('workflow_get_log', { id: 'log_7' });
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response' } });
    if (result.success) return;
    expect(result.error.issues!.map((i) => i.path)).toContain('data.workflowId');
  });
});

describe('workflow_get_execution', () => {
  it('GETs /api/v1/logs/executions/<executionId> and returns the state snapshot', async () => {
    const wf = platform();
    wf.on('GET', '/api/v1/logs/executions/exec_7', { status: 200, body: EXECUTION_DETAIL, headers: RATE_HEADERS });
    const result = await wf.run('workflow_get_execution', { executionId: 'exec_7' });
    expect(wf.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/logs/executions/exec_7', query: {}, body: undefined });
    expect(wf.requests[0]!.headers['x-api-key']).toBe(API_KEY);
    expect(result).toEqual({
      success: true,
      output: EXECUTION_DETAIL,
      meta: expect.objectContaining({ status: 200, attempts: 1, rateLimit: expect.objectContaining({ remaining: 29 }) }),
    });
  });

  it('keeps the limits a deployment adds', async () => {
    const wf = platform();
    wf.on('GET', '/api/v1/logs/executions/exec_7', { status: 200, body: { ...EXECUTION_DETAIL, limits: LIMITS } });
    const result = await wf.run('workflow_get_execution', { executionId: 'exec_7' });
    expect(result).toMatchObject({ success: true, output: { limits: LIMITS } });
  });

  it('retries a 502 on this read and returns the snapshot', async () => {
    const wf = platform();
    wf.on('GET', '/api/v1/logs/executions/exec_7', { status: 502, body: 'Bad Gateway' }, { status: 200, body: EXECUTION_DETAIL });
    const result = await wf.run('workflow_get_execution', { executionId: 'exec_7' });
    expect(result).toMatchObject({ success: true, output: { executionId: 'exec_7' }, meta: { attempts: 2 } });
  });

  it('returns forbidden and unauthorized with the service message', async () => {
    const wf = platform();
    wf.on('GET', '/api/v1/logs/executions/exec_7', { status: 403, body: { error: 'Access denied' } }, { status: 401, body: { error: 'Missing API key' } });
    expect(await wf.run('workflow_get_execution', { executionId: 'exec_7' })).toMatchObject({ success: false, error: { code: 'forbidden', message: 'Access denied' } });
    expect(await wf.run('workflow_get_execution', { executionId: 'exec_7' })).toMatchObject({ success: false, error: { code: 'unauthorized', message: 'Missing API key' } });
  });
});
