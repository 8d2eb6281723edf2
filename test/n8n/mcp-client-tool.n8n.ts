/**
 * n8n's own *MCP Client Tool* node (`@n8n/n8n-nodes-langchain.mcpClientTool`) against
 * `flowblocks mcp --http` (issue 40, item 9), inside the real n8n of `npm run test:n8n`: an AI
 * Agent whose model is a stub of OpenAI's API on loopback (test/n8n/openai-stub.ts) calls our
 * tools through two MCP Client Tool nodes, one with n8n's *Bearer Auth* credential (the service
 * credentials kept on our server), one with *Multiple Headers Auth* (the bearer token and the
 * Tinybird credential sent with each request); a third workflow's token is wrong. Each workflow
 * runs with `n8n execute --id` against the sandbox, and what n8n stored is read back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureN8n, importIntoN8n, n8n, N8N_VERSION, readExecutions, type StoredExecution } from '../../scripts/n8n-host.js';
import { credentialRef, workflowNode as node } from '../../scripts/n8n-workflow-json.js';
import { createMcpHttpHandler } from '../../src/hosts/agents/mcp-http/handler.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { messageText, startOpenAiStub, type OpenAiStub } from './openai-stub.js';

const TOKEN = 'n8n-mcp-token-0123456789abcdef';
const WRONG_TOKEN = 'n8n-mcp-wrong-token-0123456789';
const OPENAI_KEY = 'sk-stub-0123456789';
const LANGCHAIN = '@n8n/n8n-nodes-langchain';
/** The newest versions of n8n's nodes the host has: 1.x's MCP Client Tool stops at 1.2, its AI Agent at 3. */
const ON_1X = Number(N8N_VERSION.split('.')[0]) < 2;
const MCP_CLIENT_VERSION = ON_1X ? 1.2 : 1.4;
const AGENT_VERSION = ON_1X ? 3 : 3.1;
/**
 * What these tests read is 2.x's MCP Client Tool (1.4): on 1.123.81 the workflow runs, but its
 * 1.2 stores no `structuredContent`, connects with fewer requests and drops our 401's words from
 * the error, so those three are 2.x's; the secrets test runs on both.
 */
const on2x = it.skipIf(ON_1X);

let sb: Sandbox;
let home: string;
let model: OpenAiStub;
let mcp: Server;
let mcpUrl: string;
/** Every request our MCP server took: the headers that matter here, and the status it answered. */
const received: { method?: string; authorization?: string; tinybirdToken?: string; status?: number }[] = [];
/** The workflow's execution as n8n stored it, and what `n8n execute` printed. */
let run: StoredExecution;
let printed: string;

/** An MCP Client Tool node as a user sets it up: the endpoint, HTTP Streamable, a credential, the tools picked. */
const mcpClient = (name: string, authentication: 'bearerAuth' | 'multipleHeadersAuth', credentialType: string, credential: string, tools: string[]) =>
  node(name, `${LANGCHAIN}.mcpClientTool`, MCP_CLIENT_VERSION, { endpointUrl: mcpUrl, serverTransport: 'httpStreamable', authentication, include: 'selected', includeTools: tools }, { credentials: credentialRef(credentialType, credential) });

/** An AI Agent (its own stub model) with these MCP Client Tool nodes as its tools, started by `Start`. */
function agent(name: string, tools: ReturnType<typeof mcpClient>[], extra: Record<string, unknown> = {}) {
  const modelName = `${name} model`;
  const nodes = [
    node(name, `${LANGCHAIN}.agent`, AGENT_VERSION, { promptType: 'define', text: 'Run the daily report and count the events.', options: {} }, extra),
    // The Chat Completions API (not the Responses API): what an OpenAI-compatible server offers.
    node(modelName, `${LANGCHAIN}.lmChatOpenAi`, 1.3, { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, responsesApiEnabled: false, options: {} }, { credentials: credentialRef('openAiApi', 'openAiStub000000') }),
    ...tools,
  ];
  const connections = {
    [modelName]: { ai_languageModel: [[{ node: name, type: 'ai_languageModel', index: 0 }]] },
    ...Object.fromEntries(tools.map((t) => [t.name, { ai_tool: [[{ node: name, type: 'ai_tool', index: 0 }]] }])),
  };
  return { nodes, connections };
}

/** One workflow, one `n8n execute` (each starts a whole n8n): the branches run one after the other. */
function workflow(id: string, branches: ReturnType<typeof agent>[]) {
  const roots = branches.map((b) => b.nodes[0]!.name);
  const nodes = [node('Start', 'n8n-nodes-base.manualTrigger', 1, {}), ...branches.flatMap((b) => b.nodes)];
  const connections = Object.assign({ Start: { main: [roots.map((root) => ({ node: root, type: 'main', index: 0 }))] } }, ...branches.map((b) => b.connections));
  return { id, name: id, active: false, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** What a node put out on a connection type in its first run (an MCP tool's `ai_tool`, the agent's `main`). */
const output = (e: StoredExecution, name: string, type = 'main') =>
  (e.data.resultData.runData[name]?.[0]?.data as Record<string, ({ json: Record<string, unknown> }[] | null)[]> | undefined)?.[type]?.[0] ?? null;

beforeAll(async () => {
  ensureN8n();
  home = mkdtempSync(join(tmpdir(), 'flowblocks-n8n-mcp-'));
  sb = await startSandbox({ servicePorts: false });
  model = await startOpenAiStub({
    workflow_execute: { workflowId: 'wf_daily_report', inputs: { email: 'n8n-mcp@example.com' } },
    tinybird_query: { query: 'SELECT 401 AS n FORMAT JSON' },
  });
  // Our server as `flowblocks mcp --http` runs it with FLOWBLOCKS_MCP_TOKEN: the workflow
  // platform's key kept on the server, Tinybird's only from a client's headers.
  const handler = await createMcpHttpHandler({
    token: TOKEN,
    services: ['workflow', 'tinybird'],
    settings: { workflow: { base_url: sb.urls.workflow, apiKey: sb.credentials.workflow.apiKey } },
    allowBaseUrls: [sb.urls.tinybird],
  });
  mcp = createServer((req, res) => {
    const entry: (typeof received)[number] = { method: req.method, authorization: req.headers.authorization, tinybirdToken: req.headers['x-tinybird-token'] as string | undefined };
    received.push(entry);
    res.once('finish', () => (entry.status = res.statusCode));
    handler(req, res);
  });
  mcpUrl = `${(await listenOnLoopback(mcp)).origin}/mcp`;

  const credentials = [
    { id: 'openAiStub000000', name: 'openAiStub000000', type: 'openAiApi', data: { apiKey: OPENAI_KEY, url: model.url } },
    { id: 'mcpBearer0000000', name: 'mcpBearer0000000', type: 'httpBearerAuth', data: { token: TOKEN } },
    { id: 'mcpWrongBearer00', name: 'mcpWrongBearer00', type: 'httpBearerAuth', data: { token: WRONG_TOKEN } },
    {
      id: 'mcpHeaders000000',
      name: 'mcpHeaders000000',
      type: 'httpMultipleHeadersAuth',
      data: {
        headers: {
          values: [
            { name: 'Authorization', value: `Bearer ${TOKEN}` },
            { name: 'X-Tinybird-Token', value: sb.credentials.tinybird.adminToken },
            { name: 'X-Tinybird-Base-Url', value: sb.urls.tinybird },
          ],
        },
      },
    },
  ];
  const workflows = {
    agents: workflow('fbMcpAgents00001', [
      agent('AI Agent', [
        mcpClient('Flowblocks MCP', 'bearerAuth', 'httpBearerAuth', 'mcpBearer0000000', ['workflow_execute']),
        mcpClient('Flowblocks MCP own keys', 'multipleHeadersAuth', 'httpMultipleHeadersAuth', 'mcpHeaders000000', ['tinybird_query']),
      ]),
      // A wrong token: its error is the agent's output item, so the run goes on and ends stored.
      agent('AI Agent, wrong token', [mcpClient('Flowblocks MCP, wrong token', 'bearerAuth', 'httpBearerAuth', 'mcpWrongBearer00', ['workflow_execute'])], { onError: 'continueRegularOutput' }),
    ]),
  };
  await importIntoN8n(home, credentials, Object.values(workflows));
  const started = performance.now();
  const ran = await n8n(['execute', `--id=${workflows.agents.id}`, '--rawOutput'], home);
  console.log(`n8n execute of the MCP workflow: ${Math.round(performance.now() - started)} ms`);
  printed = `${ran.stdout}${ran.stderr}`;
  const stored = await readExecutions(home);
  if (stored.length !== 1) throw new Error(`${stored.length} executions stored; n8n exited ${ran.code}: ${printed.slice(-2000)}`);
  run = stored[0]!;
}, 3_600_000);

afterAll(async () => {
  await sb?.close();
  await model?.close();
  mcp?.closeAllConnections();
  mcp?.close();
  if (home && !process.env.FLOWBLOCKS_KEEP_N8N_HOME) rmSync(home, { recursive: true, force: true });
  else if (home) console.log(`n8n user folder kept: ${home}`);
});

describe(`n8n ${N8N_VERSION}'s MCP Client Tool against flowblocks mcp --http`, () => {
  on2x("runs our tools from an AI Agent, our results reaching the model and the agent's answer", () => {
    expect(run.status).toBe('success');
    // What each MCP Client Tool node gave the agent: our tools' results, as our server answered them.
    expect(output(run, 'Flowblocks MCP', 'ai_tool')?.[0]?.json.structuredContent).toMatchObject({ output: { success: true } });
    expect(output(run, 'Flowblocks MCP own keys', 'ai_tool')?.[0]?.json.structuredContent).toMatchObject({ output: { data: [{ n: 401 }], rows: 1 } });
    // The model was offered the picked tools only, under n8n's names, and was sent both results.
    // Two turns of the agent with the right token; the one with the wrong token never reached the model.
    expect(model.requests).toHaveLength(2);
    const [first, second] = model.requests;
    expect(first!.tools!.map((t) => t.function.name).sort()).toEqual(['Flowblocks_MCP_own_keys_tinybird_query', 'Flowblocks_MCP_workflow_execute']);
    const toolMessages = second!.messages.filter((m) => m.role === 'tool').map(messageText);
    expect(toolMessages).toHaveLength(2);
    expect(toolMessages.join('\n')).toMatch(/"n":401/);
    expect(String(output(run, 'AI Agent')?.[0]?.json.output)).toMatch(/^The tools answered: .*"n":401/s);
  });

  on2x('reached our server with the token of the Bearer Auth credential, and the Tinybird credential as headers', () => {
    const answered = received.filter((r) => r.authorization === `Bearer ${TOKEN}`);
    // Per connection n8n's client posts initialize, initialized and tools/list, and GETs a stream,
    // which a stateless server does not offer (405, as MCP's transport allows); then the call.
    expect(answered.filter((r) => r.method === 'POST').every((r) => r.status === 200 || r.status === 202)).toBe(true);
    expect(answered.filter((r) => r.method !== 'POST').every((r) => r.method === 'GET' && r.status === 405)).toBe(true);
    // Both nodes connected, each with its own credential: the Tinybird token from the headers node only.
    expect(answered.filter((r) => r.method === 'POST' && r.tinybirdToken === sb.credentials.tinybird.adminToken).length).toBeGreaterThanOrEqual(4);
    expect(answered.filter((r) => r.method === 'POST' && r.tinybirdToken === undefined).length).toBeGreaterThanOrEqual(4);
  });

  on2x("ends the agent with n8n's \"Authentication failed\" and our 401 when the token is wrong", () => {
    const refused = received.filter((r) => r.authorization === `Bearer ${WRONG_TOKEN}`);
    expect(refused).toEqual([{ method: 'POST', authorization: `Bearer ${WRONG_TOKEN}`, status: 401 }]);
    const toolRun = run.data.resultData.runData['Flowblocks MCP, wrong token']?.[0];
    expect(toolRun?.error).toMatchObject({
      message: 'Could not connect to your MCP server. Authentication failed.',
      description: expect.stringContaining('unauthorized: send Authorization: Bearer <the server token>'),
    });
    expect(output(run, 'AI Agent, wrong token')).toEqual([expect.objectContaining({ json: { error: expect.stringContaining('Flowblocks MCP, wrong token') } })]);
  });

  it("keeps every secret out of n8n's stored execution, its output and the model's requests", () => {
    const secrets = [TOKEN, WRONG_TOKEN, OPENAI_KEY, sb.credentials.tinybird.adminToken, sb.credentials.workflow.apiKey];
    const stored = JSON.stringify(run);
    const sentToModel = JSON.stringify(model.requests);
    for (const secret of secrets) {
      for (const encoded of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64'), JSON.stringify(secret).slice(1, -1)]) {
        expect(stored).not.toContain(encoded);
        expect(printed).not.toContain(encoded);
        expect(sentToModel).not.toContain(encoded);
      }
    }
  });
});
