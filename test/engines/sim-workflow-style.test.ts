/**
 * The workflow block inside Sim (issue 39, item 8): a Sim deployment reads the execute body
 * `flat` (the inputs are the body), so in the Sim adapter `flat` is the default of the
 * sub-block, of the tool's param and of every call that leaves it unset; `spec` stays a choice.
 */
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { getTool } from '../../src/index.js';
import { toSimBlocks } from '../../src/hosts/sim/blocks.js';
import { toSimTool } from '../../src/hosts/sim/index.js';

const BASE = 'https://sim.example';
const KEY = 'wf-style-test-key';
const createElement = (type: string, props: Record<string, unknown>) => ({ type, props });
const agents: MockAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** A Sim deployment that records the execute bodies it receives. */
function simDeployment(bodies: unknown[]) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agents.push(agent);
  agent
    .get(BASE)
    .intercept({ method: 'POST', path: '/api/workflows/wf_1/execute' })
    .reply(200, (request) => {
      bodies.push(JSON.parse(String(request.body)));
      return { success: true, executionId: 'ex_1', output: {} };
    }, { headers: { 'content-type': 'application/json' } })
    .persist();
  return agent;
}

describe('the workflow block in Sim', () => {
  const tool = getTool('workflow_execute')!;

  it("shows flat as the input style's default, and the tool's param says so", () => {
    const block = toSimBlocks({ createElement }).blocks.flowblocks_workflow!;
    const inputStyle = block.subBlocks.find((s) => s.id === 'inputStyle');
    expect(inputStyle?.type).toBe('dropdown');
    // What Sim's editor seeds a new block with: `value()`, else `defaultValue`.
    expect(inputStyle?.value?.({}) ?? inputStyle?.defaultValue).toBe('flat');
    expect(toSimTool(tool).params.inputStyle).toMatchObject({ default: 'flat', visibility: 'user-only' });
  });

  it('sends the inputs as the whole body when the style is unset, and the spec body when it is chosen', async () => {
    const bodies: unknown[] = [];
    const dispatcher = simDeployment(bodies);
    const simTool = toSimTool(tool, { execute: { dispatcher, retry: false } });
    const base = { base_url: BASE, apiKey: KEY, workflowId: 'wf_1', inputs: '{"email": "ada@example.com"}' };
    const unset = await simTool.directExecution(base);
    const empty = await simTool.directExecution({ ...base, inputStyle: '' });
    const spec = await simTool.directExecution({ ...base, inputStyle: 'spec' });
    expect([unset, empty, spec].map((r) => r.error ?? r.success)).toEqual([true, true, true]);
    expect(bodies).toEqual([{ email: 'ada@example.com' }, { email: 'ada@example.com' }, { inputs: { email: 'ada@example.com' } }]);
  });
});
