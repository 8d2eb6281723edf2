import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { getTool } from '../../src/index.js';
import { toSimTool } from '../../src/hosts/sim/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { getBlock } from '../../src/registry.js';
import { runN8nNode } from './n8n-context.js';

/**
 * Every host runs a tool through the same entry as `executeTool`: a host's `endpoints` naming a
 * service that does not exist (a typo) is refused before any request, as it is for the agents,
 * rather than sending the call to the real service.
 */
const agent = new MockAgent();
agent.disableNetConnect();
afterEach(() => agent.assertNoPendingInterceptors());

describe('one entry for every host', () => {
  it("Sim: an endpoints entry for no service is refused, naming the known ones; nothing is sent", async () => {
    const tool = toSimTool(getTool('loops_send_event')!, { execute: { dispatcher: agent, endpoints: { lops: 'http://127.0.0.1:9/api/v1' } } });
    const result = await tool.directExecution({ apiKey: 'k-one-host-entry', email: 'ada@example.com', eventName: 'signup' });
    expect(result.success).toBe(false);
    expect(result.error).toBe('invalid_params: invalid options: endpoints.lops: no service named "lops" (known: tinybird, loops, workflow)');
  });

  it("Sim: a known service's endpoint is where the call goes", async () => {
    agent
      .get('http://127.0.0.1:9')
      .intercept({ method: 'POST', path: '/api/v1/events/send', body: JSON.stringify({ eventName: 'signup', email: 'ada@example.com' }) })
      .reply(200, { success: true }, { headers: { 'content-type': 'application/json' } });
    const tool = toSimTool(getTool('loops_send_event')!, { execute: { dispatcher: agent, endpoints: { loops: 'http://127.0.0.1:9/api/v1' } } });
    const result = await tool.directExecution({ apiKey: 'k-one-host-entry', email: 'ada@example.com', eventName: 'signup' });
    expect(result).toMatchObject({ success: true, output: { success: true }, statusCode: 200 });
  });

  it('n8n: the same entry, the same refusal; and the base URL of its credential goes where the connection places it', async () => {
    const refusing = toN8nNode(getBlock('loops')!, { execute: { dispatcher: agent, endpoints: { lops: 'http://127.0.0.1:9/api/v1' } } });
    const refused = await runN8nNode({ node: new refusing.Node(), parameters: { resource: 'event', operation: 'sendEvent', eventName: 'signup', additionalFields: { email: 'ada@example.com' } }, credentials: { apiKey: 'k-one-host-entry' }, continueOnFail: true });
    expect(JSON.stringify(refused.output)).toContain('endpoints.lops: no service named \\"lops\\"');

    agent
      .get('http://127.0.0.1:9')
      .intercept({ method: 'POST', path: '/loops-at/api/v1/events/send', body: JSON.stringify({ eventName: 'signup', email: 'ada@example.com' }) })
      .reply(200, { success: true }, { headers: { 'content-type': 'application/json' } });
    const placed = toN8nNode(getBlock('loops')!, { execute: { dispatcher: agent } });
    const sent = await runN8nNode({ node: new placed.Node(), parameters: { resource: 'event', operation: 'sendEvent', eventName: 'signup', additionalFields: { email: 'ada@example.com' } }, credentials: { apiKey: 'k-one-host-entry', baseUrl: 'http://127.0.0.1:9/loops-at/api/v1' } });
    expect(sent.output).toEqual([[{ json: { success: true }, pairedItem: { item: 0 } }]]);
  });
});
