/**
 * #31 items 7 and 9: a mistyped param, tool id or command is refused with a "did you mean",
 * and a missing param is said to be required. Callers that carry other fields (the engine
 * adapters, the agents, a block's `resolve`) still work: they keep the tool's params only.
 */
import { describe, expect, it } from 'vitest';
import { executeTool, getBlock } from '../../src/index.js';
import { closestName } from '../../src/harness/did-you-mean.js';
import { toSimTools } from '../../src/sim/index.js';
import { mockService } from '../helpers/mock-service.js';
import { cli } from '../cli/run-cli.js';

const ORIGIN = 'http://tinybird.test';
const base = { base_url: ORIGIN, token: 'p.secret-token-1234' };

describe('an unknown param', () => {
  it('is invalid_params naming it, with the param it resembles, and nothing is sent', async () => {
    const svc = mockService(ORIGIN);
    const result = await executeTool('tinybird_query_pipe', { ...base, pipelin: 'top_events' } as never, { dispatcher: svc.agent });
    expect(svc.requests).toHaveLength(0);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params' } });
    if (result.success) return;
    expect(result.error.issues).toEqual([
      { path: 'pipelin', message: "unknown param (did you mean 'pipe'?)" },
      { path: 'pipe', message: 'required (expected string)' },
    ]);
    expect(result.error.message).toBe(
      "invalid params: pipelin: unknown param (did you mean 'pipe'?); pipe: required (expected string)",
    );
  });

  it('is refused even when every other param is valid (waitt for wait)', async () => {
    const svc = mockService(ORIGIN);
    const result = await executeTool('tinybird_events', { ...base, datasource: 'events', data: '{"a":1}', waitt: true } as never, {
      dispatcher: svc.agent,
    });
    expect(svc.requests).toHaveLength(0);
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', issues: [{ path: 'waitt', message: "unknown param (did you mean 'wait'?)" }] },
    });
  });

  it('names a key that resembles nothing without a suggestion, and __proto__ is only a name', async () => {
    const params = JSON.parse('{"base_url":"http://tinybird.test","token":"t","query":"SELECT 1","__proto__":{"x":1},"zzzzzzzzzz":1}');
    const result = await executeTool('tinybird_query', params);
    expect(result).toMatchObject({
      success: false,
      error: {
        code: 'invalid_params',
        issues: [
          { path: '__proto__', message: 'unknown param' },
          { path: 'zzzzzzzzzz', message: 'unknown param' },
        ],
      },
    });
  });
});

describe('callers that carry other fields keep only the tool params', () => {
  it("a block's resolve drops the other operations' fields", async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/v0/pipes/top_events.json', { status: 200, body: { meta: [], data: [], rows: 0, statistics: { elapsed: 0, rows_read: 0, bytes_read: 0 } } });
    const { tool, params } = getBlock('tinybird').resolve({ operation: 'query_pipe', ...base, pipe: 'top_events', query: 'SELECT 1', datasource: 'x' });
    const result = await executeTool(tool, params as never, { dispatcher: svc.agent });
    expect(result).toMatchObject({ success: true });
    expect(svc.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v0/pipes/top_events.json']);
  });

  it("the Sim adapter passes an editor's extra fields (operation, other fields) without an error", async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/v0/pipes/top_events.json', { status: 200, body: { meta: [], data: [], rows: 0, statistics: { elapsed: 0, rows_read: 0, bytes_read: 0 } } });
    const tool = toSimTools({ execute: { dispatcher: svc.agent } }).flowblocks_tinybird_query_pipe!;
    const result = await tool.directExecution!({ operation: 'query_pipe', ...base, pipe: 'top_events', query: 'unused', _context: { workflowId: 'w' } });
    expect(result).toMatchObject({ success: true });
    expect(svc.requests).toHaveLength(1);
  });
});

describe('a missing param', () => {
  it('is said to be required, by name', async () => {
    const result = await executeTool('tinybird_query', { ...base } as never);
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', message: 'invalid params: query: required (expected string)', issues: [{ path: 'query', message: 'required (expected string)' }] },
    });
  });

  it('keeps the other messages as zod gives them (a value of the wrong type is not "required")', async () => {
    const result = await executeTool('tinybird_query', { ...base, query: 42 } as never);
    expect(result).toMatchObject({ success: false, error: { issues: [{ path: 'query', message: expect.stringMatching(/^Invalid input: expected string, received number/) }] } });
  });
});

describe('closestName', () => {
  it('finds the name a typo meant, and nothing for an unrelated one', () => {
    expect(closestName('waitt', ['wait', 'datasource'])).toBe('wait');
    expect(closestName('pipelin', ['base_url', 'token', 'pipe', 'parameters'])).toBe('pipe');
    expect(closestName('sandox', ['sandbox', 'list', 'monitor'])).toBe('sandbox');
    expect(closestName('tinybird_qurey', ['tinybird_query', 'tinybird_query_pipe'])).toBe('tinybird_query');
    expect(closestName('frobnicate', ['list', 'run', 'sandbox'])).toBeUndefined();
  });
});

describe('the command line', () => {
  it('suggests the command meant, without the whole help', async () => {
    const out = await cli(['sandox', '--port', '0']);
    expect(out).toEqual({ code: 2, stdout: '', stderr: "unknown command sandox (did you mean 'sandbox'?); flowblocks --help lists them\n" });
  });

  it('suggests the tool meant, without the whole help', async () => {
    const out = await cli(['run', 'tinybird_qurey', '--param', 'query=SELECT 1']);
    expect(out).toEqual({ code: 2, stdout: '', stderr: "no tool with id tinybird_qurey (did you mean 'tinybird_query'?) (see flowblocks list)\n" });
    expect((await cli(['schema', 'loops_find_contat'])).stderr).toBe("no tool with id loops_find_contat (did you mean 'loops_find_contact'?) (see flowblocks list)\n");
  });

  it('refuses a mistyped --param of run, naming the param meant', async () => {
    const out = await cli(['run', 'tinybird_events', '--param', 'base_url=http://127.0.0.1:9', '--param', 'token=t', '--param', 'datasource=events', '--param', 'data={}', '--param', 'waitt=true']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stderr)).toMatchObject({
      success: false,
      error: { code: 'invalid_params', issues: [{ path: 'waitt', message: "unknown param (did you mean 'wait'?)" }] },
    });
  });
});
