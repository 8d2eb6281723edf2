/**
 * #31 item 7 where the harness meets its callers: callers that carry other fields (a block's
 * `resolve`, the engine adapters) keep the tool's params only and still work; the command line
 * names the command, tool id or param meant (the harness's own tests: test/harness/unknown-params.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { executeTool, getBlock } from '../../src/index.js';
import { toSimTools } from '../../src/hosts/sim/index.js';
import { mockService } from '../helpers/mock-service.js';
import { cli } from '../cli/run-cli.js';

const ORIGIN = 'http://tinybird.test';
const base = { base_url: ORIGIN, token: 'p.secret-token-1234' };

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
