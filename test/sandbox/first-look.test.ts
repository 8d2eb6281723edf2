import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { blocksResponse, runBlock } from '../../src/satellites/preview/api.js';
import { sandboxConnection } from '../../src/satellites/preview/connection.js';
import { listBlocks } from '../../src/registry.js';
import { startSandbox, type Sandbox, type SandboxIndex } from '../../src/satellites/sandbox/index.js';

describe('the sandbox as a first look', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ servicePorts: false, seed: true });
  });
  afterAll(() => sb.close());

  it('seeds events with a few hundred demo rows, so the first query and pipe answer with data', async () => {
    const tb = { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken };
    const q = await executeTool('tinybird_query', { ...tb, query: 'SELECT count() AS n, uniqExact(user_id) AS users FROM events FORMAT JSON' });
    expect(q.success).toBe(true);
    const row = (q.success ? q.output.data : [])[0] as { n: number | string; users: number | string };
    expect(Number(row.n)).toBe(400);
    expect(Number(row.users)).toBeGreaterThan(30);
    const pipe = await executeTool('tinybird_query_pipe', { ...tb, pipe: 'top_events', parameters: { limit: 3 } });
    expect(pipe.success && pipe.output.data.length).toBe(3);
  });

  it('answers / with an index: recognisably a flowblocks sandbox, its services, credentials and admin routes', async () => {
    const origin = new URL(sb.urls.tinybird).origin;
    const res = await fetch(`${origin}/`);
    expect(res.status).toBe(200);
    const index = (await res.json()) as SandboxIndex;
    expect(index).toMatchObject({
      flowblocks: 'sandbox',
      pid: process.pid,
      services: {
        tinybird: { baseUrl: sb.urls.tinybird, credentials: { adminToken: sb.credentials.tinybird.adminToken } },
        loops: { baseUrl: sb.urls.loops, credentials: { apiKey: sb.credentials.loops.apiKey } },
        workflow: { baseUrl: sb.urls.workflow, credentials: { apiKey: sb.credentials.workflow.apiKey } },
      },
      admin: { loopsOutbox: expect.stringContaining('/loops/_sandbox/outbox') },
    });
  });

  it('prefills the preview with working examples: a first Run of each block succeeds', async () => {
    const connection = sandboxConnection(sb);
    const blocks = listBlocks();
    const shown = blocksResponse(blocks, connection).blocks;
    const values = (type: string) => shown.find((b) => b.manifest.type === type)!.values;
    expect(values('tinybird')).toMatchObject({ datasource: 'events', pipe: 'top_events' });
    expect(values('workflow')).toMatchObject({ workflowId: 'wf_signup_pipeline' });
    expect(values('loops')).toMatchObject({ transactionalId: 'tx_welcome' });
    const choices = (type: string) => shown.find((b) => b.manifest.type === type)!.choices;
    expect(choices('tinybird')).toMatchObject({ datasource: ['events'], pipe: ['top_events'] });
    expect(choices('workflow')?.workflowId).toContain('wf_signup_pipeline');
    expect(choices('loops')?.transactionalId).toContain('tx_welcome');
    const ok = async (type: string, operation: string) => {
      const res = await runBlock(blocks, { ...connection, endpoints: { loops: sb.urls.loops } }, { type, values: { ...values(type), operation } });
      expect(res.status).toBe(200);
      const body = res.body as { result: { success: boolean; error?: unknown } };
      expect(body.result.error).toBeUndefined();
      return body.result;
    };
    await ok('tinybird', 'query');
    await ok('tinybird', 'query_pipe');
    await ok('loops', 'send_transactional_email');
    await ok('workflow', 'execute');
  }, 60_000);
});
