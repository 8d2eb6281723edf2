import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { getTool } from '../../src/index.js';
import { toSimTool } from '../../src/hosts/sim/index.js';

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
});
