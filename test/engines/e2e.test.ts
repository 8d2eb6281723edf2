/**
 * End to end against the sandbox: for every block, one operation through the Sim adapter's
 * `ToolConfig` (as Sim runs a block: `tools.config.tool` and `params`, then `directExecution`)
 * and one through the n8n node's `execute()`, with the requests the harness sent asserted.
 * The sandbox's workflow platform reads execute bodies as Sim does (`inputStyle: 'flat'`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IHttpRequestOptions } from 'n8n-workflow';
import type { HarnessEvent } from '../../src/harness/types.js';
import { getBlock } from '../../src/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { toSimRegistry } from '../../src/hosts/sim/index.js';
import { n8nWorkflow, runN8nNode } from './n8n-context.js';

let sb: Sandbox;
const events: HarnessEvent[] = [];
const requests = () => events.filter((e): e is Extract<HarnessEvent, { type: 'request' }> => e.type === 'request');
const execute = () => ({
  endpoints: { loops: sb.urls.loops },
  retry: { baseDelayMs: 1, maxDelayMs: 4 },
  logger: (event: HarnessEvent) => events.push(event),
});

beforeAll(async () => {
  sb = await startSandbox({ servicePorts: false, workflow: { inputStyle: 'flat', jobStepMs: 20 } });
}, 60_000);
afterAll(async () => {
  await sb?.close();
});

const createElement = (type: string, props: Record<string, unknown>) => ({ type, props });
const sim = () => toSimRegistry({ createElement, execute });

/** The workflow block's execute values for the sandbox's daily report. */
const dailyReport = (values: Record<string, unknown>) => ({
  operation: 'execute',
  base_url: sb.urls.workflow,
  apiKey: sb.credentials.workflow.apiKey,
  workflowId: 'wf_daily_report',
  ...values,
});

/** Runs a Sim block as Sim's executor does: pick the tool, map the values, run the tool. */
async function runSimBlock(type: string, values: Record<string, unknown>) {
  const { blocks, tools } = sim();
  const block = blocks[`flowblocks_${type}`]!;
  const toolId = block.tools.config.tool(values);
  expect(block.tools.access).toContain(toolId);
  events.length = 0;
  // Sim's generic handler: `{ ...inputs, ...tools.config.params(inputs) }`, then the tool.
  return { toolId, response: await tools[toolId]!.directExecution({ ...values, ...block.tools.config.params(values) }) };
}

async function runN8n(type: string, parameters: Record<string, unknown>, credentials: Record<string, unknown>, continueOnFail = false, signal?: AbortSignal) {
  const { Node } = toN8nNode(getBlock(type)!, { execute, n8nWorkflow });
  events.length = 0;
  return runN8nNode({ node: new Node(), parameters: parameters as never, credentials: credentials as never, continueOnFail, signal });
}

describe('Sim adapter against the sandbox', () => {
  it('tinybird: query (SQL from a code field)', async () => {
    const { toolId, response } = await runSimBlock('tinybird', {
      operation: 'query',
      base_url: sb.urls.tinybird,
      token: sb.credentials.tinybird.readToken,
      query: 'SELECT count() AS total FROM events FORMAT JSON',
    });
    expect(toolId).toBe('flowblocks_tinybird_query');
    expect(response).toMatchObject({ success: true, output: { data: [{ total: expect.anything() }] } });
    expect(requests()).toEqual([expect.objectContaining({ method: 'POST', url: `${sb.urls.tinybird}/v0/sql` })]);
  });

  it('loops: create_contact (a switch, JSON text for custom properties)', async () => {
    const { response } = await runSimBlock('loops', {
      operation: 'create_contact',
      apiKey: sb.credentials.loops.apiKey,
      email: 'sim-adapter@example.com',
      firstName: 'Sim',
      subscribed: true,
      customProperties: '{"plan": "pro"}',
    });
    expect(response).toMatchObject({ success: true, output: { id: expect.any(String) } });
    expect(requests()).toEqual([expect.objectContaining({ method: 'POST', url: `${sb.urls.loops}/contacts/create` })]);
  });

  it('workflow: execute with inputStyle flat, as a Sim deployment reads the body', async () => {
    const { response } = await runSimBlock('workflow', dailyReport({ inputs: '{"email": "ops@example.com"}', inputStyle: 'flat' }));
    expect(response).toMatchObject({ success: true, output: { success: true, executionId: expect.any(String) } });
    expect(requests()).toEqual([
      expect.objectContaining({ method: 'POST', url: `${sb.urls.workflow}/api/workflows/wf_daily_report/execute` }),
    ]);
  });

  it('converts a number typed into a short input (Sim has no number field)', async () => {
    const { response } = await runSimBlock('workflow', {
      operation: 'list_logs',
      base_url: sb.urls.workflow,
      apiKey: sb.credentials.workflow.apiKey,
      workspaceId: sb.credentials.workflow.workspaceId,
      limit: '5',
    });
    expect(response).toMatchObject({ success: true, output: { data: expect.any(Array) } });
    expect(requests()[0]!.url).toContain('limit=5');
  });

  it('reports a failure as readable text, with the code and issues in output', async () => {
    const { response } = await runSimBlock('workflow', dailyReport({ inputs: '{"email": "ops@example.com"}', inputStyle: 'spec' }));
    // The spec's {"inputs": {...}} reaches a Sim-style platform nested: `email` is missing.
    expect(response.success).toBe(false);
    expect(response.error).toMatch(/^bad_request: .*email: is required/);
    expect(response.output).toMatchObject({ error: { code: 'bad_request', status: 400, issues: [{ path: 'email', message: 'is required' }] } });
  });

  it('validates cross-field rules in the harness before any request', async () => {
    const { response } = await runSimBlock('workflow', dailyReport({ waitForCompletion: true }));
    expect(response).toMatchObject({ success: false, output: { error: { code: 'invalid_params' } } });
    expect(response.error).toContain('waitForCompletion needs async: true');
    expect(requests()).toEqual([]);
  });
});

describe('n8n node against the sandbox', () => {
  it('tinybird: query', async () => {
    const { output } = await runN8n(
      'tinybird',
      { operation: 'query', query: 'SELECT 1 AS one FORMAT JSON' },
      { token: sb.credentials.tinybird.readToken, baseUrl: sb.urls.tinybird },
    );
    // One item per row, as n8n's own database nodes answer.
    expect(output).toEqual([[{ json: { one: 1 }, pairedItem: { item: 0 } }]]);
    expect(requests()).toEqual([expect.objectContaining({ method: 'POST', url: `${sb.urls.tinybird}/v0/sql` })]);
  });

  it('loops: find_contact (the base URL from the credential goes to options.endpoints)', async () => {
    const { output } = await runN8n(
      'loops',
      { operation: 'findContact', additionalFields: { email: 'sim-adapter@example.com' } },
      { apiKey: sb.credentials.loops.apiKey, baseUrl: sb.urls.loops },
    );
    expect(output[0]).toHaveLength(1);
    expect(requests()).toEqual([expect.objectContaining({ method: 'GET', url: `${sb.urls.loops}/contacts/find?email=sim-adapter%40example.com` })]);
  });

  it('workflow: execute, flat, asynchronous and waited for', async () => {
    const { output } = await runN8n(
      'workflow',
      {
        operation: 'execute',
        workflowId: 'wf_daily_report',
        inputs: '{"email": "n8n@example.com"}',
        inputStyle: 'flat',
        async: true,
        waitForCompletion: true,
        pollIntervalSeconds: 0.1,
      },
      { apiKey: sb.credentials.workflow.apiKey, baseUrl: sb.urls.workflow },
    );
    expect(output[0]![0]!.json).toMatchObject({ success: true, status: 'completed' });
    const sent = requests();
    expect(sent[0]).toMatchObject({ method: 'POST', url: `${sb.urls.workflow}/api/workflows/wf_daily_report/execute` });
    expect(sent.slice(1).every((r) => r.method === 'GET' && r.url.startsWith(`${sb.urls.workflow}/api/jobs/task_`))).toBe(true);
  });

  it("follows n8n's continueOnFail: json as n8n 1.x's error output takes it (error, message only), the error on item.error as 2.x reads it", async () => {
    const parameters = { operation: 'getLog', id: 'log_missing' };
    const credentials = { apiKey: sb.credentials.workflow.apiKey, baseUrl: sb.urls.workflow };
    const { output } = await runN8n('workflow', parameters, credentials, true);
    const item = output[0]![0]!;
    // n8n 1.x (workflow-execute.js, handleNodeErrorOutput): `error` alone or with `message`, no other key.
    expect(Object.keys(item.json).sort()).toEqual(['error', 'message']);
    // The text as n8n's own errors read, without the code (`not_found: `): that is in the details.
    expect(item.json).toMatchObject({ error: expect.not.stringMatching(/^not_found/), message: expect.any(String) });
    expect(item.json.error).toBe(item.json.message);
    // n8n 2.x reads `item.error` first: the host's own NodeApiError with the status.
    expect(item.error).toBeInstanceOf(n8nWorkflow.NodeApiError);
    expect(item.error).toMatchObject({ httpCode: '404' });
    expect(item.pairedItem).toEqual({ item: 0 });
  });

  it("throws the host's NodeApiError when the service answered, NodeOperationError otherwise", async () => {
    const credentials = { apiKey: sb.credentials.workflow.apiKey, baseUrl: sb.urls.workflow };
    const answered = await runN8n('workflow', { operation: 'getLog', id: 'log_missing' }, credentials).catch((e: unknown) => e);
    expect(answered).toBeInstanceOf(n8nWorkflow.NodeApiError);
    expect(answered).toMatchObject({ message: expect.not.stringMatching(/^not_found/), description: expect.stringMatching(/\(not_found\)$/), httpCode: '404', node: { type: 'flowblocksWorkflow' } });
    expect(requests()).toHaveLength(1);
    const refused = await runN8n('workflow', { operation: 'getLog', id: '..' }, credentials).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(n8nWorkflow.NodeOperationError);
    expect(refused).not.toBeInstanceOf(n8nWorkflow.NodeApiError);
    expect((refused as Error).message).toMatch(/^(?!invalid)/);
    expect(refused).toMatchObject({ description: expect.stringMatching(/\(invalid_params\)$/) });
    expect(requests()).toEqual([]);
  });

  it("ends a cancelled run with n8n's own cancellation, the request aborted", async () => {
    const controller = new AbortController();
    const cancelled = new n8nWorkflow.TimeoutExecutionCancelledError('exec-1');
    const run = runN8n('tinybird', { operation: 'query', query: 'SELECT sleep(3) FORMAT JSON' }, { token: sb.credentials.tinybird.readToken, baseUrl: sb.urls.tinybird }, false, controller.signal);
    setTimeout(() => controller.abort(cancelled), 200);
    await expect(run).rejects.toBe(cancelled);
    expect(requests()).toHaveLength(1);
  });
});

describe("n8n credentials: n8n's Test button sends one cheap authenticated request", () => {
  /** Resolves a credential's expression as n8n's CredentialsHelper does (`$credentials` as an additional key). */
  function resolve(value: string, credentials: Record<string, unknown>): unknown {
    const node = { id: '1', name: 'test', type: 'test', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
    const nodeTypes = { getByName: () => undefined, getByNameAndVersion: () => undefined, getKnownTypes: () => ({}) };
    const workflow = new n8nWorkflow.Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: nodeTypes as never });
    return workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials } as never);
  }

  async function testCredential(type: string, credentials: Record<string, unknown>): Promise<{ url: string; status: number; body: unknown }> {
    const { credential } = toN8nNode(getBlock(type)!);
    const request = credential.test!.request;
    const baseURL = String(resolve(request.baseURL!, credentials));
    // The credential's `authenticate` on the request as n8n's credential tester builds it.
    const authenticate = credential.authenticate as (c: Record<string, unknown>, r: IHttpRequestOptions) => Promise<IHttpRequestOptions>;
    const { headers } = await authenticate(credentials, { ...(request as IHttpRequestOptions), baseURL, url: request.url!, headers: {}, timeout: 300_000 });
    const url = `${baseURL}${request.url}`;
    const answer = await fetch(url, { method: request.method ?? 'GET', headers: headers as Record<string, string> });
    const text = await answer.text();
    return { url, status: answer.status, body: answer.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as unknown) : text };
  }

  /** The test's `responseSuccessBody` rule that fails this answer, as n8n evaluates it (the body's field equal to the rule's value). */
  function failedRule(type: string, body: unknown) {
    const rules = toN8nNode(getBlock(type)!).credential.test!.rules ?? [];
    const field = (key: string) => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined);
    return rules.find((rule) => rule.type === 'responseSuccessBody' && field(rule.properties.key) === rule.properties.value);
  }

  it('passes a valid credential and refuses a wrong one, for every service', async () => {
    const cases = [
      { type: 'tinybird', good: { token: sb.credentials.tinybird.readToken, baseUrl: `${sb.urls.tinybird}/` }, bad: { token: 'p.wrong', baseUrl: sb.urls.tinybird }, path: '/v0/pipes' },
      { type: 'loops', good: { apiKey: sb.credentials.loops.apiKey, baseUrl: sb.urls.loops }, bad: { apiKey: 'wrong', baseUrl: sb.urls.loops }, path: '/api-key' },
    ];
    for (const { type, good, bad, path } of cases) {
      const ok = await testCredential(type, good);
      expect(ok, type).toMatchObject({ url: `${good.baseUrl.replace(/\/$/, '')}${path}`, status: 200 });
      expect((await testCredential(type, bad)).status, type).toBeGreaterThanOrEqual(401);
      expect((await testCredential(type, bad)).status, type).toBeLessThanOrEqual(403);
    }
  });

  it("reads the workflow platform's refusal of a list without a workspace: details only for an accepted key (docs/engines.md)", async () => {
    const { request, rules } = toN8nNode(getBlock('workflow')!).credential.test!;
    expect(request).toMatchObject({ url: '/api/v1/logs', method: 'GET', ignoreHttpStatusErrors: true });
    expect(rules).toEqual([{ type: 'responseSuccessBody', properties: { key: 'details', value: undefined, message: expect.stringContaining('did not accept the credential') } }]);
    const good = await testCredential('workflow', { apiKey: sb.credentials.workflow.apiKey, baseUrl: `${sb.urls.workflow}/` });
    expect(good).toMatchObject({ url: `${sb.urls.workflow}/api/v1/logs`, status: 400, body: { details: [{ path: 'workspaceId', message: 'is required' }] } });
    expect(failedRule('workflow', good.body)).toBeUndefined();
    const wrong = await testCredential('workflow', { apiKey: 'wf-wrong', baseUrl: sb.urls.workflow });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'Missing or invalid API key' } });
    expect(failedRule('workflow', wrong.body)).toBeDefined();
    // Another service at the base URL: its own answer to this path has no details.
    const elsewhere = await testCredential('workflow', { apiKey: sb.credentials.workflow.apiKey, baseUrl: sb.urls.tinybird });
    expect(elsewhere.status).toBeGreaterThanOrEqual(400);
    expect(failedRule('workflow', elsewhere.body)).toBeDefined();
  });
});

