/**
 * Type test (checked by `tsc -p tsconfig.check.json`): an app on undici 8 (here `undici-v8`, a
 * devDependency alias) passes its own MockAgent as `dispatcher`, as the docs' tests do with ours.
 * The type is what the harness calls (`dispatch`), not undici 7's Dispatcher class (issue 42).
 */
// Types only: undici 8 does not load on Node 20 (test/harness/foreign-undici.test.ts runs it on 22+).
import type { Agent as Agent8, MockAgent as MockAgent8 } from 'undici-v8';
import { expect, it } from 'vitest';
import type { AgentToolOptions } from '../../src/hosts/agents/index.js';
import { executeTool, type ExecuteOptions } from '../../src/index.js';
import { recordServices } from '../../src/testing/index.js';

it("takes undici 8's MockAgent and Agent where a dispatcher goes", () => {
  const typed = (mock: MockAgent8, agent: Agent8) => {
    void executeTool('tinybird_query', { base_url: 'https://api.tinybird.co', token: 't', query: 'SELECT 1' }, { dispatcher: mock });
    const options: ExecuteOptions = { dispatcher: agent };
    const agents: AgentToolOptions = { execute: { dispatcher: mock } };
    void recordServices({ upstream: mock });
    return [options, agents];
  };
  expect(typeof typed).toBe('function');
});
