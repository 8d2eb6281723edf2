import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { drainPending } from 'chdb';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { call, eventually, webhookReceiver } from './helpers.js';

const dataDir = mkdtempSync(join(tmpdir(), 'flowblocks-sandbox-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('keeps events, inferred Data Sources, contacts, e-mails and logs across a restart with dataDir', async () => {
  // Async jobs wait a minute in the first run, so one is still queued when it stops.
  const first = await startSandbox({ dataDir, workflow: { jobStepMs: 60_000 } });
  const tb = { base_url: first.urls.tinybird, token: first.credentials.tinybird.adminToken };
  const loops = { endpoints: { loops: first.urls.loops } };
  await executeTool('tinybird_events', { ...tb, datasource: 'visits', data: '{"page":"/home","ms":12}', wait: true });
  await executeTool('loops_create_contact', { apiKey: first.credentials.loops.apiKey, email: 'kept@example.com' }, loops);
  const run = await executeTool('workflow_execute', { base_url: first.urls.workflow, apiKey: first.credentials.workflow.apiKey, workflowId: 'wf_daily_report', inputs: { email: 'kept@example.com' } });
  expect(run.success).toBe(true);
  const queued = await executeTool('workflow_execute', { base_url: first.urls.workflow, apiKey: first.credentials.workflow.apiKey, workflowId: 'wf_daily_report', inputs: { email: 'kept@example.com' }, async: true });
  expect(queued).toMatchObject({ success: true, output: { status: 'queued' } });
  await first.close();
  // chdb frees its data directory once nothing native is outstanding.
  await drainPending();

  const second = await startSandbox({ dataDir });
  try {
    const tb2 = { base_url: second.urls.tinybird, token: second.credentials.tinybird.adminToken };
    const visits = await executeTool('tinybird_query', { ...tb2, query: 'SELECT page, ms FROM visits FORMAT JSON' });
    expect(visits).toMatchObject({ success: true, output: { data: [{ page: '/home', ms: 12 }] } });
    // The inferred schema came back too: a second ingest appends instead of re-creating.
    expect(await executeTool('tinybird_events', { ...tb2, datasource: 'visits', data: '{"page":"/about","ms":"not a number"}', wait: true })).toMatchObject({
      output: { successful_rows: 0, quarantined_rows: 1 },
    });
    const found = await executeTool('loops_find_contact', { apiKey: second.credentials.loops.apiKey, email: 'kept@example.com' }, { endpoints: { loops: second.urls.loops } });
    expect(found).toMatchObject({ success: true, output: { contacts: [{ email: 'kept@example.com' }] } });
    const outbox = (await (await fetch(second.admin.loopsOutbox)).json()) as { emails: { to: string }[] };
    expect(outbox.emails.map((e) => e.to)).toEqual(['kept@example.com']);
    const logs = await executeTool('workflow_list_logs', { base_url: second.urls.workflow, apiKey: second.credentials.workflow.apiKey, workspaceId: 'ws_sandbox' });
    expect(logs).toMatchObject({ success: true, output: { data: [{ workflowId: 'wf_daily_report' }] } });
    const taskId = (queued as { output: { taskId: string } }).output.taskId;
    const orphan = await executeTool('workflow_get_job', { base_url: second.urls.workflow, apiKey: second.credentials.workflow.apiKey, taskId });
    expect(orphan).toMatchObject({ success: true, output: { status: 'failed', error: 'the sandbox stopped before the job finished' } });
  } finally {
    await second.close();
  }
}, 30_000);

it('resumes notification settings configured at runtime after a restart, and forgets removed ones', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-sandbox-settings-'));
  const hook = await webhookReceiver();
  const admin = (sb: Sandbox, method: 'PUT' | 'DELETE', body?: unknown) =>
    call(`${sb.admin.workflow}/workspaces/ws_sandbox/notifications`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const runOnce = async (sb: Sandbox) => {
    const res = await executeTool('workflow_execute', { base_url: sb.urls.workflow, apiKey: sb.credentials.workflow.apiKey, workflowId: 'wf_daily_report', inputs: { email: 'kept@example.com' } });
    return (res as { output: { executionId: string } }).output.executionId;
  };
  try {
    const first = await startSandbox({ dataDir: dir });
    expect((await admin(first, 'PUT', { channels: [{ type: 'webhook', url: hook.url, secret: 'whsec-kept' }], allWorkflows: true })).status).toBe(200);
    await first.close();
    await drainPending();
    expect(statSync(join(dir, 'notification-settings.json')).mode & 0o777).toBe(0o600);

    const second = await startSandbox({ dataDir: dir });
    const executionId = await runOnce(second);
    const delivery = await eventually(async () => hook.received.find((d) => d.body.includes(executionId)));
    expect(verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: 'whsec-kept' }).data).toMatchObject({ executionId, workflowId: 'wf_daily_report' });
    expect((await admin(second, 'DELETE')).status).toBe(200);
    await second.close();
    await drainPending();

    const third = await startSandbox({ dataDir: dir });
    try {
      const before = hook.received.length;
      await runOnce(third);
      // The execution was evaluated before the call returned, by no notifier: the workspace has
      // none after the DELETE, so no delivery is queued and none can arrive later.
      expect((await call(`${third.admin.workflow}/workspaces/ws_sandbox/deliveries`)).json).toEqual({ deliveries: null });
      expect(hook.received.length).toBe(before);
    } finally {
      await third.close();
    }
  } finally {
    await hook.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
