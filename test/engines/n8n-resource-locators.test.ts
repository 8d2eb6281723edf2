/**
 * Issue 43 item 9, resource locators: a field whose values a list tool of the same service
 * gives (Tinybird's Data Sources and pipes, Loops' transactional templates) is an n8n resource
 * locator, "From List" (n8n's `listSearch` method, calling that list tool with the node's
 * credential, searched and paged) or typed; the node runs with the value either way.
 */
import { describe, expect, it } from 'vitest';
import type { ILoadOptionsFunctions, INodeProperties } from 'n8n-workflow';
import { getBlock } from '../../src/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { mockService } from '../helpers/mock-service.js';
import { n8nWorkflow, runN8nNode } from './n8n-context.js';
import { LIMITS } from '../tools/workflow/fixtures.js';

const TINYBIRD = 'https://api.tinybird.co';
const LOOPS = 'https://app.loops.so';
const WORKFLOW = 'https://www.sim.ai';

/** What n8n hands a `listSearch` method: the node's credential (and its HTTP helpers). */
const loadOptions = (credentials: Record<string, unknown>) =>
  ({ getCredentials: async () => credentials, getNode: () => ({ name: 'node', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} }), helpers: {} }) as unknown as ILoadOptionsFunctions;

describe('n8n resource locators', () => {
  it('makes Data Source, pipe and template fields locators with a list and a typed mode', () => {
    const locator = (type: string, name: string) => new (toN8nNode(getBlock(type)!).Node)().description.properties.find((p) => p.name === name && p.type === 'resourceLocator');
    const datasource = locator('tinybird', 'datasource')!;
    expect(datasource.default).toEqual({ mode: 'list', value: '' });
    expect(datasource.modes!.map((m) => [m.name, m.type, m.typeOptions?.searchListMethod])).toEqual([
      ['list', 'list', 'searchDatasource'],
      ['name', 'string', undefined],
    ]);
    expect(locator('tinybird', 'pipe')!.modes![0]!.typeOptions?.searchListMethod).toBe('searchPipe');
    expect((locator('loops', 'transactionalId') as INodeProperties).modes!.map((m) => m.name)).toEqual(['list', 'id']);
    const { methods } = new (toN8nNode(getBlock('tinybird')!).Node)();
    expect(Object.keys(methods!.listSearch!)).toEqual(['searchDatasource', 'searchPipe']);
  });

  it("lists Data Sources through the list tool with the node's credential, filtered by what the user typed", async () => {
    const tinybird = mockService(TINYBIRD);
    tinybird.on('GET', '/v0/datasources', { status: 200, body: { datasources: [{ name: 'events' }, { name: 'page_views' }, { name: 'events_quarantine' }] } });
    const { Node } = toN8nNode(getBlock('tinybird')!, { execute: { dispatcher: tinybird.agent }, n8nWorkflow });
    const search = new Node().methods!.listSearch!.searchDatasource!;
    const found = await search.call(loadOptions({ token: 'p.locator_token_01', baseUrl: TINYBIRD }), 'EVENTS');
    expect(found).toEqual({ results: [{ name: 'events', value: 'events' }, { name: 'events_quarantine', value: 'events_quarantine' }] });
    expect(tinybird.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([['GET', '/v0/datasources', 'Bearer p.locator_token_01']]);
  });

  it("pages Loops' templates with n8n's pagination token, shown by name, chosen by id", async () => {
    const loops = mockService(LOOPS);
    const page = (ids: string[], nextCursor: string | null) => ({
      data: ids.map((id) => ({ id, name: `Template ${id}`, publishedEmailMessageId: 'm', createdAt: '2026-01-01T00:00:00Z', dataVariables: [] })),
      pagination: { totalResults: 3, returnedResults: ids.length, perPage: 20, totalPages: 2, nextCursor, nextPage: null },
    });
    loops.on('GET', '/api/v1/transactional-emails', { status: 200, body: page(['t1', 't2'], 'cur_2') }, { status: 200, body: page(['t3'], null) });
    const { Node } = toN8nNode(getBlock('loops')!, { execute: { dispatcher: loops.agent }, n8nWorkflow });
    const search = new Node().methods!.listSearch!.searchTransactionalId!;
    const context = loadOptions({ apiKey: 'lk_locator_key_001' });
    expect(await search.call(context)).toEqual({ results: [{ name: 'Template t1', value: 't1' }, { name: 'Template t2', value: 't2' }], paginationToken: 'cur_2' });
    expect(await search.call(context, undefined, 'cur_2')).toEqual({ results: [{ name: 'Template t3', value: 't3' }] });
    expect(loops.requests.map((r) => [r.path, r.query, r.headers.authorization])).toEqual([
      ['/api/v1/transactional-emails', { perPage: '20' }, 'Bearer lk_locator_key_001'],
      ['/api/v1/transactional-emails', { perPage: '20', cursor: 'cur_2' }, 'Bearer lk_locator_key_001'],
    ]);
  });

  it('runs with the chosen value, whether picked from the list or typed', async () => {
    const tinybird = mockService(TINYBIRD);
    const pipe = { id: 't_1', name: 'top_pages', type: 'endpoint', endpoint: 'n1', created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00', nodes: [], parameters: [] };
    tinybird.on('GET', '/v0/pipes/top_pages', { status: 200, body: pipe }, { status: 200, body: pipe });
    const { Node } = toN8nNode(getBlock('tinybird')!, { execute: { dispatcher: tinybird.agent }, n8nWorkflow });
    const credentials = { token: 'p.locator_token_01', baseUrl: TINYBIRD } as never;
    for (const mode of ['list', 'name']) {
      const parameters = { resource: 'pipe', operation: 'getPipe', pipe: { __rl: true, mode, value: 'top_pages' } } as never;
      const { output } = await runN8nNode({ node: new Node(), parameters, credentials });
      expect(output[0]![0]!.json).toMatchObject({ name: 'top_pages' });
    }
    expect(tinybird.requests.map((r) => [r.method, r.path])).toEqual([
      ['GET', '/v0/pipes/top_pages'],
      ['GET', '/v0/pipes/top_pages'],
    ]);
  });

  it("takes a workflow by ID or by its page's URL in Sim's editor, which n8n reads with the mode's pattern", async () => {
    const property = new (toN8nNode(getBlock('workflow')!).Node)().description.properties.find((p) => p.name === 'workflowId')!;
    expect(property).toMatchObject({ type: 'resourceLocator', default: { mode: 'id', value: '' } });
    expect(property.modes!.map((m) => m.name)).toEqual(['id', 'url']);
    const wf = mockService(WORKFLOW);
    const done = { success: true, output: { ok: true }, limits: LIMITS };
    wf.on('POST', '/api/workflows/wf_daily/execute', { status: 200, body: done }, { status: 200, body: done });
    const { Node } = toN8nNode(getBlock('workflow')!, { execute: { dispatcher: wf.agent }, n8nWorkflow });
    const credentials = { apiKey: 'sk-sim-locator-key-01', baseUrl: WORKFLOW } as never;
    const run = (workflowId: unknown, continueOnFail = false) =>
      runN8nNode({ node: new Node(), parameters: { resource: 'execution', operation: 'execute', workflowId } as never, credentials, continueOnFail });
    for (const workflowId of [
      { __rl: true, mode: 'id', value: 'wf_daily' },
      { __rl: true, mode: 'url', value: 'https://www.sim.ai/workspace/ws_9/w/wf_daily?tab=logs' },
    ]) {
      const { output } = await run(workflowId);
      expect(output[0]![0]!.json).toMatchObject({ success: true });
    }
    expect(wf.requests.map((r) => [r.method, r.path, r.headers['x-api-key']])).toEqual([
      ['POST', '/api/workflows/wf_daily/execute', 'sk-sim-locator-key-01'],
      ['POST', '/api/workflows/wf_daily/execute', 'sk-sim-locator-key-01'],
    ]);
    // A URL of another page is a parameter issue in n8n's editor (the mode's validation), and nothing is sent.
    await expect(run({ __rl: true, mode: 'url', value: 'https://www.sim.ai/workspace/ws_9/logs' })).rejects.toThrow(/"workflowId":\["Paste the URL of its page, like https:\/\/www.sim.ai\/workspace\/ws_1\/w\/wf_1"\]/);
    expect(wf.requests).toHaveLength(2);
  });
});
