/**
 * @vitest-environment node
 *
 * flowblocks inside a real Sim (copied into apps/sim by scripts/sim-trial.sh; not part of the
 * flowblocks suite). Sim's own registries, serializer, `executeTool` and `DAGExecutor` run the
 * adapted blocks against the flowblocks sandbox: FLOWBLOCKS_SANDBOX_URL is its prefixed port
 * (`/tinybird`, `/workflow`), FLOWBLOCKS_LOOPS_URL its Loops base URL, read by
 * apps/sim/tools/flowblocks.ts as docs/engines.md writes it.
 */
import { describe, expect, it, vi } from 'vitest'

// Sim's vitest.setup.ts mocks both registries; its own registry tests unmock them the same way.
vi.unmock('@/tools/registry')
vi.unmock('@/blocks/registry')

import { getBlock } from '@/blocks/registry'
import { DAGExecutor } from '@/executor/execution/executor'
import { Serializer } from '@/serializer'
import { executeTool } from '@/tools'

const SANDBOX = process.env.FLOWBLOCKS_SANDBOX_URL ?? ''
const TINYBIRD_TOKEN = 'p.sandbox-admin-token'
const LOOPS_KEY = 'loops-sandbox-api-key'
const WORKFLOW_KEY = 'wf-sandbox-team-key'

type SubBlocks = Record<string, { id: string; type: string; value: unknown }>

/** A block as Sim's editor stores it: the value of each sub-block, by id. */
function blockState(id: string, type: string, name: string, values: Record<string, unknown>) {
  const config = getBlock(type)
  if (!config) throw new Error(`Sim's registry has no block ${type}`)
  const subBlocks: SubBlocks = {}
  for (const sub of config.subBlocks) {
    subBlocks[sub.id] = { id: sub.id, type: sub.type, value: values[sub.id] ?? null }
  }
  return { id, type, name, position: { x: 0, y: 0 }, enabled: true, subBlocks, outputs: {}, data: {} }
}

describe('flowblocks in Sim', () => {
  it('has SANDBOX and LOOPS urls', () => {
    expect(SANDBOX).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(process.env.FLOWBLOCKS_LOOPS_URL).toBe(`${SANDBOX}/loops/api/v1`)
  })

  it("registers the blocks, their meta and tools in Sim's registries, named apart from Sim's own", () => {
    for (const type of ['flowblocks_tinybird', 'flowblocks_loops', 'flowblocks_workflow']) {
      const block = getBlock(type)
      expect(block?.name).toMatch(/ \(flowblocks\)$/)
      expect(block?.category).toBe('blocks')
    }
    expect(getBlock('tinybird')?.name).toBe('Tinybird')
  })

  it("runs a tool through Sim's executeTool", async () => {
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

  it("reports a rule between fields that Sim's required flags cannot state as a failed ToolResponse", async () => {
    // eventName is given (Sim checks required fields itself); email or userId is the harness's rule.
    const result = await executeTool('flowblocks_loops_send_event', { apiKey: LOOPS_KEY, eventName: 'signup' })
    expect(result.success).toBe(false)
    expect(result.error).toBe('invalid_params: email: give email or userId to identify the contact')
    expect(result.output.error).toMatchObject({ code: 'invalid_params', issues: [{ path: 'email' }] })
    expect(JSON.stringify(result)).not.toContain(LOOPS_KEY)
  })

  it("runs starter -> Tinybird -> Loops -> workflow execute through Sim's serializer and DAGExecutor", async () => {
    const blocks = {
      starter: { id: 'starter', type: 'starter', name: 'Start', position: { x: 0, y: 0 }, enabled: true, subBlocks: {}, outputs: {}, data: {} },
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
      workflow1: blockState('workflow1', 'flowblocks_workflow', 'Workflow 1', {
        operation: 'execute',
        base_url: `${SANDBOX}/workflow`,
        apiKey: WORKFLOW_KEY,
        workflowId: 'wf_signup_pipeline',
        inputs: '{"email": "ada@example.com", "firstName": "Ada", "userId": "u1"}',
      }),
    }
    const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target, sourceHandle: 'source', targetHandle: 'target' })
    const edges = [edge('starter', 'tinybird1'), edge('tinybird1', 'loops1'), edge('loops1', 'workflow1')]
    const workflow = new Serializer().serializeWorkflow(blocks as never, edges as never, {}, {}, true)
    expect(workflow.blocks.map((b) => b.config.tool).slice(1)).toEqual(['flowblocks_tinybird_query', 'flowblocks_loops_send_event', 'flowblocks_workflow_execute'])

    const result = await new DAGExecutor({ workflow }).execute('flowblocks-trial')
    const logs = result.logs ?? []
    const byBlock = Object.fromEntries(logs.map((log) => [log.blockId, log]))
    expect(logs.filter((log) => !log.success).map((log) => [log.blockId, log.error])).toEqual([])
    expect(result.success).toBe(true)
    expect(byBlock.tinybird1?.output).toMatchObject({ rows: 1, data: [{ signups: expect.any(Number) }] })
    expect(byBlock.loops1?.output).toMatchObject({ success: true })
    // The reference was resolved before the Loops call: its input holds the row count, not the tag.
    expect(JSON.stringify(byBlock.loops1?.input)).not.toContain('<tinybird1.rows>')
    expect(byBlock.workflow1?.output).toMatchObject({ success: true })
    const text = JSON.stringify(result)
    for (const secret of [TINYBIRD_TOKEN, LOOPS_KEY, WORKFLOW_KEY]) expect(text).not.toContain(secret)
    console.log(`flowblocks trial: ${logs.length} block logs: ${logs.map((log) => `${log.blockId}=${log.success ? 'ok' : 'failed'}`).join(', ')}`)
  })
})
