import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';

/**
 * An app's own undici 8 MockAgent as `dispatcher` (issue 42): the harness's handler speaks the
 * API undici 7 and 8 share. undici 8 needs Node 22 or later (on 20 it fails to load), so this
 * runs in CI's Node 24 pass; the type side is test/types/foreign-undici.test.ts.
 */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

describe.skipIf(NODE_MAJOR < 22)("undici 8's MockAgent as the dispatcher", () => {
  it('answers the call: the request as sent, the result normalized', async () => {
    const { MockAgent } = await import('undici-v8');
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: { path: string; method: string; headers: unknown; body: unknown }[] = [];
    agent
      .get('https://api.tinybird.co')
      .intercept({ path: '/v0/datasources', method: 'GET' })
      .reply((options) => {
        seen.push({ path: options.path, method: options.method, headers: options.headers, body: options.body });
        return { statusCode: 200, data: { datasources: [] }, responseOptions: { headers: { 'content-type': 'application/json' } } };
      });
    const result = await executeTool('tinybird_list_datasources', { base_url: 'https://api.tinybird.co', token: 'p.undici8' }, { dispatcher: agent, retry: false });
    expect(result).toMatchObject({ success: true, output: { datasources: [] }, meta: { attempts: 1, status: 200 } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ path: '/v0/datasources', method: 'GET' });
    expect(JSON.stringify(seen[0]!.headers)).toContain('Bearer p.undici8');
    await agent.close();
  });
});
