import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { call } from './helpers.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

// Issue 41 item 4: a tool cannot put a workflow in through a service port, and a running
// workflow's blocks fetch only what an import may.

let sb: Sandbox;
/** Another local service with something to hide; counts what reaches it. */
let other: Server;
let otherOrigin: string;
const hits: string[] = [];
const SECRET_BODY = JSON.stringify({ meta: [], data: [{ secret: 'other-service-canary' }], rows: 1 });

beforeAll(async () => {
  other = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(SECRET_BODY);
  });
  const otherAddress = await listenOnLoopback(other);
  otherOrigin = otherAddress.origin;
  sb = await startSandbox({ workflow: { jobStepMs: 20 } });
}, 60_000);
afterAll(async () => {
  await sb?.close();
  await new Promise((resolve) => other?.close(resolve));
});

/** A workflow whose one block queries "Tinybird" at `baseUrl`. */
const probe = (id: string, baseUrl: string) => ({
  name: id,
  workspaceId: sb.credentials.workflow.workspaceId,
  deployed: true,
  blocks: { look: { type: 'tinybird', operation: 'query', params: { base_url: baseUrl, token: '{{env.TINYBIRD_TOKEN}}', query: 'SELECT 1 FORMAT JSON' } } },
  edges: [],
});

const workflowTool = (id: string, params: Record<string, unknown>, baseUrl = sb.urls.workflow) =>
  executeTool(id, { base_url: baseUrl, apiKey: sb.credentials.workflow.apiKey, ...params });

describe('workflow admin routes', () => {
  it('are not served on the ports a tool talks to: workflow_api_call cannot PUT a workflow', async () => {
    for (const base of [sb.urls.workflow, sb.serviceUrls!.workflow]) {
      const put = await workflowTool('workflow_api_call', { method: 'PUT', path: '/_sandbox/workflows/wf_planted', body: probe('wf_planted', otherOrigin) }, base);
      expect(put, base).toMatchObject({ success: false, error: { status: 404 } });
    }
    const listed = (await call(`${sb.admin.workflow}/workflows`)).json.workflows as { id: string }[];
    expect(listed.map((w) => w.id)).not.toContain('wf_planted');
  });

  it('are served on the admin port, which is none of the service ports', async () => {
    const adminPort = new URL(sb.admin.workflow).port;
    const servicePorts = [sb.urls.workflow, ...Object.values(sb.serviceUrls!)].map((u) => new URL(u).port);
    expect(servicePorts).not.toContain(adminPort);
    expect(sb.admin.workflow).toBe(`http://127.0.0.1:${adminPort}/workflow/_sandbox`);
    const put = await call(`${sb.admin.workflow}/workflows/wf_reach`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(probe('wf_reach', otherOrigin)) });
    expect(put.status).toBe(200);
  });
});

describe('the workflow runner', () => {
  it('does not fetch another local port: the block fails, nothing reaches it, its answer is not returned', async () => {
    const result = await workflowTool('workflow_execute', { workflowId: 'wf_reach' });
    expect(hits).toEqual([]);
    expect(JSON.stringify(result)).not.toContain('other-service-canary');
    expect(result).toMatchObject({
      success: true,
      output: { success: false, error: `look: network error: The sandbox runs workflows against its own service ports and tinybird.importFrom only; ${otherOrigin} is not one` },
    });
  });

  it('does not fetch the admin port either', async () => {
    const adminOrigin = new URL(sb.admin.workflow).origin;
    await call(`${sb.admin.workflow}/workflows/wf_admin_reach`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(probe('wf_admin_reach', `${adminOrigin}/workflow/_sandbox/workflows`)) });
    const result = await workflowTool('workflow_execute', { workflowId: 'wf_admin_reach' });
    expect(result).toMatchObject({ success: true, output: { success: false, error: expect.stringContaining(`${adminOrigin} is not one`) } });
  });

  it('still runs the built-in workflows against the sandbox own ports', async () => {
    const result = await workflowTool('workflow_execute', { workflowId: 'wf_daily_report', inputs: { email: 'ops@example.com' } });
    expect(result).toMatchObject({ success: true, output: { success: true, output: { sent: true } } });
  });
});
