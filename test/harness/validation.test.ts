import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { runTool } from '../../src/harness/run/execute.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readTool, SECRET, validParams } from './fixtures.js';

describe('validation before any I/O', () => {
  it('returns invalid_params with every issue and its path, and sends nothing', async () => {
    const svc = mockService(ORIGIN);
    const result = await runTool(readTool, { base_url: 'not a url', apiKey: '', name: 'x', tags: ['a', 3] } as never, { dispatcher: svc.agent });
    expect(svc.requests).toHaveLength(0);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('invalid_params');
    expect(result.error.retryable).toBe(false);
    expect(result.error.issues?.map((i) => i.path)).toEqual(['base_url', 'apiKey', 'name', 'tags.1']);
    expect(result.error.message).toContain('tags.1');
    expect(result.meta).toMatchObject({ attempts: 0 });
    expect(result.meta.status).toBeUndefined();
  });

  it('reports a missing object as a root issue', async () => {
    const result = await runTool(readTool, undefined as never);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('invalid_params');
    expect(result.error.issues).toEqual([{ path: '', message: expect.stringMatching(/object/) }]);
  });

  it('answers unknown_tool for an id nobody registered', async () => {
    const result = await executeTool('nope_nothing' as string, {});
    expect(result).toEqual({
      success: false,
      error: { code: 'unknown_tool', message: 'no tool with id nope_nothing', retryable: false },
      meta: { attempts: 0, durationMs: 0 },
    });
  });

  it("answers a misspelled id with the id it was meant to be (issue 42)", async () => {
    const id: string = 'tinybird_querry';
    const result = await executeTool(id, {});
    expect(result).toMatchObject({ success: false, error: { code: 'unknown_tool', message: "no tool with id tinybird_querry (did you mean 'tinybird_query'?)", retryable: false } });
  });

  it('accepts a tool object as well as an id', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/items', { status: 200, body: { ok: true } });
    const result = await executeTool(readTool, validParams, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true, output: { ok: true } });
    expect(svc.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });
});
