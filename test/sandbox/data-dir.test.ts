import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { drainPending } from 'chdb';
import { executeTool } from '../../src/index.js';
import { startSandbox } from '../../src/sandbox/index.js';

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
