import { describe, expect, it, vi } from 'vitest';

// The zod a host forces (Sim: `"overrides": { "zod": "4.3.6" }`) has no `z.compile`.
vi.mock('zod', async (importOriginal) => {
  const actual = await importOriginal<typeof import('zod')>();
  const { compile: _compile, ...rest } = actual.z as typeof actual.z & { compile?: unknown };
  return { ...actual, z: rest };
});

// A setup file may have loaded the harness with the real zod already (test/mutation/setup.ts): load it again.
vi.resetModules();
const { executeTool } = await import('../../../src/index.js');
const { mockService } = await import('../../helpers/mock-service.js');
const { ORIGIN, readTool, SECRET, validParams } = await import('../fixtures.js');

describe('a zod without z.compile', () => {
  it('runs a tool with the schemas as written: the same output, the request sent', async () => {
    const { z } = await import('zod');
    expect((z as { compile?: unknown }).compile).toBeUndefined();
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await executeTool(readTool, { ...validParams, count: 2 }, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { ok: true }, meta: { status: 200, attempts: 1 } });
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: '/items', query: { name: 'widget', count: '2' }, headers: { authorization: `Bearer ${SECRET}` } });
  });

  it('params whose getter throws on the first read only: refused, not parsed again, nothing sent', async () => {
    const svc = mockService(ORIGIN);
    let reads = 0;
    const plain: { base_url: string; apiKey: string; name: string } = { base_url: ORIGIN, apiKey: SECRET, name: '' };
    const params = Object.defineProperty(plain, 'name', {
      get: () => {
        if (reads++ === 0) throw new Error('first read refused');
        return 'widget';
      },
      enumerable: true,
    });
    const result = await executeTool(readTool, params, { dispatcher: svc.agent });
    // Read again afterwards (to tell the params' fault from zod's) it reads as data, so the
    // throw is put down to the package: `internal`. Parsing it again would have sent the call.
    expect(result).toMatchObject({ success: false, error: { code: 'internal' }, meta: { attempts: 0 } });
    expect(svc.requests).toHaveLength(0);
  });

  it('still refuses bad params as invalid_params, naming the field, and a bad answer as invalid_response', async () => {
    const svc = mockService(ORIGIN);
    const refused = await executeTool(readTool, { ...validParams, name: 'x' }, { dispatcher: svc.agent });
    expect(refused).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'name' }] } });
    expect(svc.requests).toHaveLength(0);
    svc.on('GET', '/items', { status: 200, body: { ok: 'yes' } });
    const bad = await executeTool(readTool, validParams, { dispatcher: svc.agent, retry: false });
    expect(bad).toMatchObject({ success: false, error: { code: 'invalid_response', issues: [{ path: 'ok' }] } });
  });
});
