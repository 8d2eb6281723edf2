import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/harness/run/execute.js';
import { sleep } from '../../src/harness/send/sleep.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readTool, validParams, writeTool } from './fixtures.js';

describe('time limits and aborts', () => {
  it('turns a slow response into timeout, per attempt', async () => {
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'POST', path: '/items' }).reply(200, { ok: true }).delay(300);
    const result = await runTool(writeTool, validParams, { dispatcher: svc.agent, timeoutMs: 30 });
    expect(result).toMatchObject({ success: false, error: { code: 'timeout', retryable: false }, meta: { attempts: 1 } });
    expect(result.success || result.error.message).toContain('30 ms');
  });

  it('retries a timed-out read-only call', async () => {
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(200, { ok: true }).delay(300);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, timeoutMs: 30, retry: { baseDelayMs: 1 } });
    expect(result).toMatchObject({ success: true, meta: { attempts: 2 } });
  });

  it('turns the caller signal into aborted, mid-request', async () => {
    const svc = mockService(ORIGIN);
    svc.pool.intercept({ method: 'GET', path: /\/items/ }).reply(200, { ok: true }).delay(500);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, signal: controller.signal });
    expect(result).toMatchObject({ success: false, error: { code: 'aborted', retryable: false } });
  });

  it('sends nothing when the signal is already aborted', async () => {
    const svc = mockService(ORIGIN);
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ success: false, error: { code: 'aborted' }, meta: { attempts: 0 } });
    expect(svc.requests).toHaveLength(0);
  });

  it('aborts while waiting to retry', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 429, body: 'wait', headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    const result = await runTool(readTool, validParams, { dispatcher: svc.agent, signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ success: false, error: { code: 'aborted' }, meta: { attempts: 1, status: 429 } });
  });

  it('sleep resolves, and rejects on abort', async () => {
    await expect(sleep(0)).resolves.toBeUndefined();
    await expect(sleep(5)).resolves.toBeUndefined();
    await expect(sleep(5, AbortSignal.abort(new Error('stop')))).rejects.toThrow('stop');
  });
});
