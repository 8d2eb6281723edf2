/**
 * @vitest-environment node
 *
 * An Agent block runs a tool of `flowblocks mcp --http` through Sim's DAGExecutor (copied into
 * apps/sim by scripts/sim-mcp-trial.sh, removed after; not part of the flowblocks suite).
 *
 * Sim's own code on the path: Serializer, DAGExecutor, AgentBlockHandler (its MCP tool path:
 * the tool as the picker stores it, cached schema), executeProviderRequest and
 * executeProviderTool (what a provider calls for a model's tool call), executeTool's MCP branch
 * (POST /api/mcp/tools/execute), that route's handler, mcpService (server row → {{VAR}}
 * headers resolved from workspace variables → SSRF check → McpClient) and the MCP SDK's
 * transport to our server on loopback. Stood in, as Sim's own tests do: the model (a provider
 * that makes one tool call), Postgres (the server row as Settings → MCP Tools saves it, and the
 * workspace variables), the Next.js router (fetch to the route is handed to its POST), the
 * route's session/permission middleware and the enterprise permission-group check.
 *
 * FLOWBLOCKS_MCP_TRIAL: a JSON file { url, vars } written by scripts/sim-mcp-trial-server.ts.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import {
  environmentUtilsMockFns,
  loggerMock,
  queueTableRows,
  schemaMock,
  setEnv,
} from '@sim/testing'
import { NextRequest } from 'next/server'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

vi.unmock('@/blocks/registry')

const WORKSPACE_ID = 'ws-trial'
const USER_ID = 'user-trial'

// The route's session/JWT + workspace-permission middleware, as Sim's route test replaces it.
vi.mock('@/lib/mcp/middleware', () => ({
  withMcpAuth:
    () =>
    (handler: (request: NextRequest, context: Record<string, unknown>, route: unknown) => Promise<Response>) =>
    (request: NextRequest) =>
      handler(
        request,
        { userId: USER_ID, workspaceId: WORKSPACE_ID, requestId: 'trial', authType: 'internal_jwt' },
        { params: Promise.resolve({}) }
      ),
  readMcpJsonBodyWithLimit: (request: NextRequest) => request.json(),
  mcpBodyReadErrorResponse: () => null,
}))
vi.mock('@/ee/access-control/utils/permission-check', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  assertPermissionsAllowed: async () => {},
  validateMcpToolsAllowed: async () => {},
}))

/** The model: a provider that asks for one tool call, run as Sim's providers run them. */
const modelCalls: Array<{ offered: string[]; result: unknown }> = []
vi.mock('@/providers/registry', async (importOriginal) => {
  const actual = await importOriginal<Record<string, unknown>>()
  const stub = {
    id: 'openai',
    name: 'stub model',
    executeRequest: async (request: {
      tools?: Array<{ id: string; name: string }>
      model: string
    }) => {
      const { prepareToolExecution } = await import('@/providers/utils')
      const { executeProviderTool } = await import('@/providers/runtime-context')
      const tool = request.tools?.find((t) => t.name === 'workflow_execute')
      if (!tool) throw new Error(`stub model: workflow_execute not offered (${JSON.stringify(request.tools)})`)
      const args = {
        workflowId: 'wf_signup_pipeline',
        inputs: { email: 'ada@example.com', firstName: 'Ada', userId: 'u1' },
      }
      const { executionParams } = prepareToolExecution(tool as never, args, request as never)
      const { rawResponse } = await executeProviderTool(tool.id, executionParams)
      modelCalls.push({ offered: (request.tools ?? []).map((t) => t.id), result: rawResponse })
      return {
        content: `ran: ${JSON.stringify(rawResponse.output)}`,
        model: request.model,
        tokens: { input: 1, output: 1, total: 2 },
        toolCalls: [{ name: tool.id, arguments: args, result: rawResponse.output, success: rawResponse.success }],
        timing: { startTime: new Date().toISOString(), endTime: new Date().toISOString(), duration: 1 },
      }
    },
  }
  return { ...actual, getProviderExecutor: async () => stub }
})

import { encryptSecret } from '@/lib/core/security/encryption'
import { POST as executeMcpRoute } from '@/app/api/mcp/tools/execute/route'
import { mcpService } from '@/lib/mcp/service'
import { generateMcpServerId } from '@/lib/mcp/utils'
import { buildTraceSpans } from '@/lib/logs/execution/trace-spans/trace-spans'
import { getBlock } from '@/blocks/registry'
import { DAGExecutor } from '@/executor/execution/executor'
import type { ExecutionResult } from '@/executor/types'
import { createResolvedSecretTraceRegistry } from '@/executor/utils/resolved-secret-trace-registry'
import { Serializer } from '@/serializer'

const trial = JSON.parse(readFileSync(process.env.FLOWBLOCKS_MCP_TRIAL ?? '', 'utf8')) as {
  url: string
  vars: Record<string, string>
}
// The id Settings → MCP Tools gives a server it adds (a hash of workspace and URL).
const SERVER_ID = generateMcpServerId(WORKSPACE_ID, trial.url)
const SECRETS = [trial.vars.FLOWBLOCKS_MCP_TOKEN, trial.vars.WORKFLOW_API_KEY]
/** Every encoding a secret could leak in. */
const leaks = (text: string) =>
  SECRETS.flatMap((s) => [s, encodeURIComponent(s), Buffer.from(s).toString('base64'), JSON.stringify(s).slice(1, -1)])
    .filter((form) => text.includes(form))

/** The row Settings → MCP Tools saves: URL, headers whose values are workspace variables. */
const serverRow = {
  id: SERVER_ID,
  workspaceId: WORKSPACE_ID,
  name: 'flowblocks',
  description: null,
  transport: 'streamable-http',
  url: trial.url,
  authType: 'headers',
  headers: {
    Authorization: 'Bearer {{FLOWBLOCKS_MCP_TOKEN}}',
    'X-Workflow-Api-Key': '{{WORKFLOW_API_KEY}}',
    'X-Workflow-Base-Url': '{{WORKFLOW_BASE_URL}}',
  },
  timeout: 30000,
  retries: 3,
  enabled: true,
  connectionStatus: 'connected',
  deletedAt: null,
  createdAt: new Date(),
  updatedAt: new Date(),
}

/** The workspace variables as Sim's environment store hands them out (Postgres stood in), encrypted by Sim. */
const workspaceEnv = {
  personalEncrypted: {} as Record<string, string>,
  workspaceEncrypted: {} as Record<string, string>,
  personalDecrypted: {},
  workspaceDecrypted: trial.vars,
  conflicts: [],
  decryptionFailures: [],
}

const billingAttribution = {
  actorUserId: USER_ID,
  workspaceId: WORKSPACE_ID,
  organizationId: null,
  billedAccountUserId: USER_ID,
  billingEntity: { type: 'user' as const, id: USER_ID },
  billingPeriod: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
  payerSubscription: null,
}

/** Requests the executor sent to Sim's own API, handed to the route as Next.js would. */
const routed: Array<{ path: string; status: number; body: unknown }> = []

function routeInternalApi() {
  vi.unstubAllGlobals() // Sim's setup stubs fetch; the MCP transport needs the real one
  const nodeFetch = globalThis.fetch
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.pathname !== '/api/mcp/tools/execute') return nodeFetch(input, init)
    const response = await executeMcpRoute(new NextRequest(url, init as never), {} as never)
    routed.push({ path: url.pathname, status: response.status, body: await response.clone().json() })
    return response
  })
}

/** A block as Sim's editor stores it: each sub-block's value, else what the editor seeds. */
function blockState(id: string, type: string, name: string, values: Record<string, unknown>) {
  const config = getBlock(type)
  if (!config) throw new Error(`Sim's registry has no block ${type}`)
  const subBlocks: Record<string, { id: string; type: string; value: unknown }> = {}
  for (const sub of config.subBlocks) {
    if (subBlocks[sub.id]) continue
    const seeded = typeof sub.value === 'function' ? sub.value({}) : sub.defaultValue
    subBlocks[sub.id] = { id: sub.id, type: sub.type, value: sub.id in values ? values[sub.id] : (seeded ?? null) }
  }
  return { id, type, name, position: { x: 0, y: 0 }, enabled: true, subBlocks, outputs: {}, data: {} }
}

/** Every line Sim's loggers were given during the run. */
function simLogText(): string {
  const lines: unknown[] = []
  for (const made of vi.mocked(loggerMock.createLogger).mock.results) {
    const logger = made.value as Record<string, { mock?: { calls: unknown[][] } }>
    for (const level of Object.values(logger ?? {})) lines.push(...(level?.mock?.calls ?? []))
  }
  return JSON.stringify(lines, (_key, value) =>
    value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value
  )
}

describe('flowblocks mcp --http in a Sim Agent block', () => {
  beforeAll(async () => {
    setEnv({ ENCRYPTION_KEY: randomBytes(32).toString('hex') }) // a deployment's own key
    for (const [name, value] of Object.entries(trial.vars)) {
      workspaceEnv.workspaceEncrypted[name] = (await encryptSecret(value)).encrypted
    }
  })

  beforeEach(() => {
    for (let i = 0; i < 20; i++) queueTableRows(schemaMock.mcpServers, [serverRow])
    environmentUtilsMockFns.mockGetEffectiveEnvironmentSnapshot.mockResolvedValue(workspaceEnv)
    routeInternalApi()
  })

  afterAll(() => mcpService.dispose())

  it('runs workflow_execute from an Agent block through DAGExecutor, no secret in the trace or the logs', async () => {
    // The tool picker: Sim's MCP service lists the server's tools, one is stored as the picker stores it.
    const listed = await mcpService.discoverServerTools(USER_ID, SERVER_ID, WORKSPACE_ID)
    const tool = listed.find((t) => t.name === 'workflow_execute')
    expect(tool, `listed: ${listed.map((t) => t.name)}`).toBeDefined()
    const stored = {
      type: 'mcp',
      title: tool!.name,
      toolId: tool!.id,
      params: { serverId: SERVER_ID, serverUrl: trial.url, toolName: tool!.name, serverName: tool!.serverName },
      isExpanded: true,
      usageControl: 'auto',
      schema: { ...tool!.inputSchema, description: tool!.description },
    }

    const blocks = {
      starter: blockState('starter', 'starter', 'Start', {}),
      agent1: blockState('agent1', 'agent', 'Agent', {
        model: 'gpt-4o',
        apiKey: 'stub-model-key',
        messages: [{ role: 'user', content: 'Run the signup pipeline for Ada.' }],
        tools: [stored],
      }),
    }
    const edges = [{ id: 'e1', source: 'starter', target: 'agent1', sourceHandle: 'source', targetHandle: 'target' }]
    const workflow = new Serializer().serializeWorkflow(blocks as never, edges as never, {}, {}, true)
    // As Sim's execution core sets up a run: the decrypted variables, and the registry of
    // resolved secrets that Sim's traces and tool results are projected through.
    const resolvedSecretTraceRegistry = await createResolvedSecretTraceRegistry({
      ...workspaceEnv,
      scope: { userId: USER_ID, workspaceId: WORKSPACE_ID },
    })
    const executor = new DAGExecutor({
      workflow,
      envVarValues: trial.vars,
      contextExtensions: {
        workspaceId: WORKSPACE_ID,
        userId: USER_ID,
        executionId: 'exec-trial',
        billingAttribution,
        resolvedSecretTraceRegistry,
      },
    })
    let result: ExecutionResult
    try {
      result = await executor.execute('wf-trial')
    } catch (error) {
      // DAGExecutor throws on a block error; the run's result rides on the error.
      const partial = (error as { executionResult?: ExecutionResult }).executionResult
      if (!partial) throw error
      result = partial
    }

    expect(result.success, JSON.stringify(result.error ?? result.logs?.map((l) => l.error))).toBe(true)
    expect(modelCalls).toHaveLength(1)
    expect(modelCalls[0].offered).toContain(`${SERVER_ID}-workflow_execute`)
    expect(routed, JSON.stringify(modelCalls[0]?.result)).toEqual([expect.objectContaining({ path: '/api/mcp/tools/execute', status: 200 })])
    const agentLog = result.logs?.find((log) => log.blockId === 'agent1')
    const toolCalls = (agentLog?.output as { toolCalls?: { list?: Array<Record<string, unknown>> } })?.toolCalls?.list ?? []
    expect(toolCalls.map((c) => c.name)).toEqual([`${SERVER_ID}-workflow_execute`])
    const call = toolCalls[0] as { success?: boolean; result?: { structuredContent?: { output?: unknown } } }
    expect(call.success, JSON.stringify({ call, routed })).toBe(true)
    // What our workflow_execute returns for the sandbox's signup pipeline, through Sim's route.
    expect(call.result?.structuredContent?.output).toMatchObject({
      success: true,
      output: { ingested: 1, welcomeSent: true },
      executionId: expect.any(String),
    })
    const output = JSON.stringify(call.result?.structuredContent?.output)

    // The trace Sim's execution core stores: the spans it builds from the result's block logs.
    const { traceSpans } = buildTraceSpans(result)
    const trace = JSON.stringify({ result, traceSpans })
    expect(JSON.stringify(traceSpans)).toContain(`${SERVER_ID}-workflow_execute`)
    const logs = simLogText()
    expect(logs, "Sim's loggers were captured").toContain('Executing MCP tool')
    expect(leaks(trace), 'a secret in the execution result or its trace spans').toEqual([])
    expect(leaks(logs), "a secret in Sim's logs").toEqual([])
    expect(leaks(JSON.stringify(routed)), 'a secret in the route response').toEqual([])
    console.log(
      `flowblocks mcp trial: Agent block → ${toolCalls[0]?.name} via /api/mcp/tools/execute ` +
        `(status ${routed[0]?.status}); ${listed.length} tools listed; result ${output.slice(0, 160)}; ` +
        `trace ${trace.length} chars and ${logs.length} chars of Sim's logs, no secret in either`
    )
  })
})
