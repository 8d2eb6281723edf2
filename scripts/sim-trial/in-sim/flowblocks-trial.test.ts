/**
 * @vitest-environment node
 *
 * flowblocks inside a real Sim (copied into apps/sim by scripts/sim-trial.sh; not part of the
 * flowblocks suite). Sim's own registries, serializer, `executeTool`, outbound guard, Agent
 * block and `DAGExecutor` run the adapted blocks against the flowblocks sandbox:
 * FLOWBLOCKS_SANDBOX_URL is its prefixed port (`/tinybird`, `/workflow`, its workflow platform
 * reading execute bodies flat as Sim does), FLOWBLOCKS_LOOPS_URL its Loops base URL, read by
 * apps/sim/tools/flowblocks.ts as docs/engines.md writes it.
 */
import { resetEnvFlagsMock, setEnvFlags } from '@sim/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'

// Sim's vitest.setup.ts mocks both registries; its own registry tests unmock them the same way.
vi.unmock('@/tools/registry')
vi.unmock('@/blocks/registry')

/**
 * The Agent block's model: a stub provider that does what a model's tool call makes Sim's
 * providers do (`prepareToolExecution`, then `executeTool`) with the first tool it is offered,
 * and answers with that tool's output.
 */
const modelCalls: Array<{ tools: string[]; result: unknown }> = []
type StubRequest = { tools?: { id: string }[]; model?: string }
vi.mock('@/providers', async (importOriginal) => {
  const actual = await importOriginal<Record<string, unknown>>()
  return {
    ...actual,
    executeProviderRequest: vi.fn(async (_provider: string, request: StubRequest) => {
      const { prepareToolExecution } = await import('@/providers/utils')
      const { executeTool: runTool } = await import('@/tools')
      const tool = request.tools?.[0]
      if (!tool) throw new Error('stub model: no tool was offered')
      const args = { query: 'SELECT count() AS n FROM events' }
      const { executionParams } = prepareToolExecution(tool as never, args, request as never)
      const result = await runTool(tool.id, executionParams)
      modelCalls.push({ tools: request.tools.map((t) => t.id), result })
      return {
        content: `events: ${JSON.stringify(result.output?.data)}`,
        model: request.model ?? 'stub-model',
        tokens: { input: 1, output: 1, total: 2 },
        toolCalls: [
          { name: tool.id, arguments: args, result: result.output, success: result.success },
        ],
        cost: { input: 0, output: 0, total: 0 },
        timing: { total: 1 },
      }
    }),
  }
})

import { isAgentToolBlock } from '@/app/workspace/[workspaceId]/w/[workflowId]/components/panel/components/editor/components/sub-block/components/tool-input/utils'
import { getAllBlocks, getBlock } from '@/blocks/registry'
import { DAGExecutor } from '@/executor/execution/executor'
import type { ExecutionResult } from '@/executor/types'
import { Serializer } from '@/serializer'
import { executeTool } from '@/tools'

const SANDBOX = process.env.FLOWBLOCKS_SANDBOX_URL ?? ''
const TINYBIRD_TOKEN = 'p.sandbox-admin-token'
const LOOPS_KEY = 'loops-sandbox-api-key'
const WORKFLOW_KEY = 'wf-sandbox-team-key'
const SECRETS = [TINYBIRD_TOKEN, LOOPS_KEY, WORKFLOW_KEY]

type SubBlocks = Record<string, { id: string; type: string; value: unknown }>

/** A block as Sim's editor stores it: each sub-block's value, else what the editor seeds (`value()`, else `defaultValue`). */
function blockState(id: string, type: string, name: string, values: Record<string, unknown>) {
  const config = getBlock(type)
  if (!config) throw new Error(`Sim's registry has no block ${type}`)
  const subBlocks: SubBlocks = {}
  for (const sub of config.subBlocks) {
    if (subBlocks[sub.id]) continue
    const seeded = typeof sub.value === 'function' ? sub.value({}) : sub.defaultValue
    subBlocks[sub.id] = {
      id: sub.id,
      type: sub.type,
      value: sub.id in values ? values[sub.id] : (seeded ?? null),
    }
  }
  return {
    id,
    type,
    name,
    position: { x: 0, y: 0 },
    enabled: true,
    subBlocks,
    outputs: {},
    data: {},
  }
}

const starter = {
  id: 'starter',
  type: 'starter',
  name: 'Start',
  position: { x: 0, y: 0 },
  enabled: true,
  subBlocks: {},
  outputs: {},
  data: {},
}
const edge = (source: string, target: string, sourceHandle = 'source') => ({
  id: `${source}-${target}`,
  source,
  target,
  sourceHandle,
  targetHandle: 'target',
})

/** Serializes and runs a workflow; a run that ends in a block error gives its result on the thrown error. */
async function run(blocks: Record<string, unknown>, edges: unknown[]): Promise<ExecutionResult> {
  const workflow = new Serializer().serializeWorkflow(blocks as never, edges as never, {}, {}, true)
  try {
    return await new DAGExecutor({ workflow }).execute('flowblocks-trial')
  } catch (error) {
    const result = (error as { executionResult?: ExecutionResult }).executionResult
    if (!result) throw error
    return result
  }
}

const logsOf = (result: ExecutionResult) =>
  Object.fromEntries((result.logs ?? []).map((log) => [log.blockId, log]))

describe('flowblocks in Sim', () => {
  afterEach(() => resetEnvFlagsMock())

  it('has SANDBOX and LOOPS urls', () => {
    expect(SANDBOX).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(process.env.FLOWBLOCKS_LOOPS_URL).toBe(`${SANDBOX}/loops/api/v1`)
  })

  it("registers the blocks, named apart from Sim's own, starting on a read", () => {
    for (const type of ['flowblocks_tinybird', 'flowblocks_loops', 'flowblocks_workflow']) {
      const block = getBlock(type)
      expect(block?.name).toMatch(/ \(flowblocks\)$/)
      expect(block?.canvasPresentation?.sentences?.byOperation).toBeDefined()
    }
    expect(getBlock('tinybird')?.name).toBe('Tinybird')
    expect(blockState('t', 'flowblocks_tinybird', 'T', {}).subBlocks.operation.value).toBe('query')
    expect(blockState('w', 'flowblocks_workflow', 'W', {}).subBlocks.inputStyle.value).toBe('flat')
  })

  it("lists the blocks in the Agent block's tool picker (isAgentToolBlock): native files of category tools", () => {
    const listed = ['flowblocks_tinybird', 'flowblocks_loops', 'flowblocks_workflow'].map(
      (type) => {
        const block = getBlock(type)!
        return [type, block.category, block.integrationType, isAgentToolBlock(block)]
      }
    )
    // What the picker lists (tool-input.tsx: `getAllBlocks().filter(isAgentToolBlock)`).
    const picker = getAllBlocks()
      .filter(isAgentToolBlock)
      .map((block) => block.type)
    expect(picker).toEqual(
      expect.arrayContaining(['flowblocks_tinybird', 'flowblocks_loops', 'flowblocks_workflow'])
    )
    console.log(
      `flowblocks trial: agent picker ${JSON.stringify(listed)}; ${picker.length} blocks in the picker`
    )
    expect(listed).toEqual([
      ['flowblocks_tinybird', 'tools', 'analytics', true],
      ['flowblocks_loops', 'tools', 'email', true],
      ['flowblocks_workflow', 'tools', 'productivity', true],
    ])
  })

  it("runs a tool through Sim's executeTool, its outbound guard allowing the loopback sandbox on a self-hosted Sim", async () => {
    const result = await executeTool('flowblocks_tinybird_query', {
      base_url: `${SANDBOX}/tinybird`,
      token: TINYBIRD_TOKEN,
      query: 'SELECT count() AS n FROM events',
    })
    expect(result.error).toBeUndefined()
    expect(result.success).toBe(true)
    expect(result.output.data).toEqual([{ n: expect.any(Number) }])
    expect(result.output.rows).toBe(1)
    expect(JSON.stringify(result)).not.toContain(TINYBIRD_TOKEN)
  })

  it("goes through Sim's outbound guard: a private address refused, and on hosted Sim a loopback base_url too", async () => {
    const query = { token: TINYBIRD_TOKEN, query: 'SELECT 1' }
    const privateIp = await executeTool('flowblocks_tinybird_query', {
      ...query,
      base_url: 'https://10.255.255.1/tinybird',
    })
    expect(privateIp).toMatchObject({ success: false, output: { error: { code: 'forbidden' } } })
    expect(privateIp.error).toContain('toolUrl cannot point to private IP addresses')

    setEnvFlags({ isHosted: true })
    const tinybird = await executeTool('flowblocks_tinybird_query', {
      ...query,
      base_url: `${SANDBOX}/tinybird`,
    })
    const logs = await executeTool('flowblocks_workflow_list_logs', {
      base_url: `${SANDBOX}/workflow`,
      apiKey: WORKFLOW_KEY,
      workspaceId: 'ws_demo',
    })
    const loops = await executeTool('flowblocks_loops_find_contact', {
      apiKey: LOOPS_KEY,
      email: 'ada@example.com',
    })
    for (const result of [tinybird, logs, loops]) {
      expect(result.success).toBe(false)
      expect(result.error).toBe(
        "forbidden: Sim's outbound policy refused the request: toolUrl cannot point to localhost"
      )
      for (const secret of SECRETS) expect(JSON.stringify(result)).not.toContain(secret)
    }
    console.log(
      `flowblocks trial: hosted Sim refused ${SANDBOX} for tinybird, workflow and loops: ${tinybird.error}`
    )
  })

  it("reports a rule between fields that Sim's required flags cannot state as a failed ToolResponse", async () => {
    // eventName is given (Sim checks required fields itself); email or userId is the harness's rule.
    const result = await executeTool('flowblocks_loops_send_event', {
      apiKey: LOOPS_KEY,
      eventName: 'signup',
    })
    expect(result.success).toBe(false)
    expect(result.error).toBe('invalid_params: email: give email or userId to identify the contact')
    expect(result.output.error).toMatchObject({
      code: 'invalid_params',
      issues: [{ path: 'email' }],
    })
    expect(JSON.stringify(result)).not.toContain(LOOPS_KEY)
  })

  it("runs starter -> Tinybird -> Loops -> workflow execute (flat, Sim's style) through Sim's serializer and DAGExecutor", async () => {
    const blocks = {
      starter,
      tinybird1: blockState('tinybird1', 'flowblocks_tinybird', 'Tinybird 1', {
        operation: 'query',
        base_url: `${SANDBOX}/tinybird`,
        token: TINYBIRD_TOKEN,
        query: "SELECT count() AS signups FROM events WHERE event = 'signup'",
      }),
      loops1: blockState('loops1', 'flowblocks_loops', 'Loops 1', {
        operation: 'send_event',
        apiKey: LOOPS_KEY,
        email: 'ada@example.com',
        eventName: 'weekly_report',
        eventProperties: '{"rows": <tinybird1.rows>}',
      }),
      // No inputStyle given: the block holds what Sim's editor seeds, flat.
      workflow1: blockState('workflow1', 'flowblocks_workflow', 'Workflow 1', {
        operation: 'execute',
        base_url: `${SANDBOX}/workflow`,
        apiKey: WORKFLOW_KEY,
        workflowId: 'wf_signup_pipeline',
        inputs: '{"email": "ada@example.com", "firstName": "Ada", "userId": "u1"}',
      }),
    }
    const result = await run(blocks, [
      edge('starter', 'tinybird1'),
      edge('tinybird1', 'loops1'),
      edge('loops1', 'workflow1'),
    ])
    const logs = result.logs ?? []
    const byBlock = logsOf(result)
    expect(logs.filter((log) => !log.success).map((log) => [log.blockId, log.error])).toEqual([])
    expect(result.success).toBe(true)
    expect(byBlock.tinybird1?.output).toMatchObject({
      rows: 1,
      data: [{ signups: expect.any(Number) }],
    })
    expect(byBlock.loops1?.output).toMatchObject({ success: true })
    // The reference was resolved before the Loops call: its input holds the row count, not the tag.
    expect(JSON.stringify(byBlock.loops1?.input)).not.toContain('<tinybird1.rows>')
    expect(byBlock.workflow1?.input).toMatchObject({ inputStyle: 'flat' })
    expect(byBlock.workflow1?.output).toMatchObject({ success: true })
    const text = JSON.stringify(result)
    for (const secret of SECRETS) expect(text).not.toContain(secret)
    console.log(
      `flowblocks trial: ${logs.length} block logs: ${logs.map((log) => `${log.blockId}=${log.success ? 'ok' : 'failed'}`).join(', ')}`
    )
  })

  it("runs a failure through DAGExecutor: the error edge's block reads <loops1.error>, the line, and nothing else of it", async () => {
    const failing = blockState('loops1', 'flowblocks_loops', 'Loops 1', {
      operation: 'send_event',
      apiKey: LOOPS_KEY,
      eventName: 'signup',
    })
    const reading = (reference: string) =>
      blockState('loops2', 'flowblocks_loops', 'Loops 2', {
        operation: 'send_event',
        apiKey: LOOPS_KEY,
        email: 'ada@example.com',
        eventName: reference,
      })
    const edges = [edge('starter', 'loops1'), edge('loops1', 'loops2', 'error')]

    const line = 'invalid_params: email: give email or userId to identify the contact'
    const handled = await run(
      { starter, loops1: failing, loops2: reading('<loops1.error>') },
      edges
    )
    const byBlock = logsOf(handled)
    expect(byBlock.loops1).toMatchObject({ success: false, error: line })
    // Sim replaces a failed block's output: the structured error of the ToolResponse is not passed on.
    expect(byBlock.loops1?.output).toEqual({ error: line })
    expect(byBlock.loops2?.input).toMatchObject({ eventName: line })
    console.log(
      `flowblocks trial: error edge: loops1 failed (${line}); loops2 ran with eventName = <loops1.error>: ${byBlock.loops2?.success ? 'ok' : byBlock.loops2?.error}`
    )

    const deeper = await run(
      { starter, loops1: failing, loops2: reading('<loops1.error.code>') },
      edges
    )
    const deeperLogs = logsOf(deeper)
    expect(deeper.success).toBe(false)
    expect(deeperLogs.loops2?.success).not.toBe(true)
    console.log(
      `flowblocks trial: <loops1.error.code>: run success=${deeper.success}, loops2: ${deeperLogs.loops2?.error ?? 'did not run'}; run error: ${deeper.error}`
    )
  })

  it('runs an Agent block whose (stub) model calls one of our tools, through DAGExecutor', async () => {
    modelCalls.length = 0
    const agent1 = blockState('agent1', 'agent', 'Agent 1', {
      model: 'gpt-4o',
      apiKey: 'sk-stub-model-key',
      messages: [{ role: 'user', content: 'How many events are there?' }],
      tools: [
        {
          type: 'flowblocks_tinybird',
          title: 'Tinybird (flowblocks)',
          operation: 'query',
          params: { base_url: `${SANDBOX}/tinybird`, token: TINYBIRD_TOKEN },
          usageControl: 'auto',
          isExpanded: true,
        },
      ],
    })
    const result = await run({ starter, agent1 }, [edge('starter', 'agent1')])
    const byBlock = logsOf(result)
    expect(byBlock.agent1?.error).toBeUndefined()
    expect(modelCalls).toHaveLength(1)
    expect(modelCalls[0]?.tools).toEqual(['flowblocks_tinybird_query'])
    expect(modelCalls[0]?.result).toMatchObject({
      success: true,
      output: { rows: 1, data: [{ n: expect.any(Number) }] },
    })
    expect(String((byBlock.agent1?.output as { content?: string })?.content)).toMatch(
      /^events: \[\{"n":\d+\}\]$/
    )
    expect(JSON.stringify(result)).not.toContain(TINYBIRD_TOKEN)
    console.log(
      `flowblocks trial: agent1 ${byBlock.agent1?.success ? 'ok' : 'failed'}: ${(byBlock.agent1?.output as { content?: string })?.content}`
    )
  })
})
