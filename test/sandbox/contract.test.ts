/**
 * Contract tests: every tool of every block, unchanged, against the sandbox over real
 * HTTP on 127.0.0.1. Only base_url and options.endpoints point at the sandbox. A tool of an
 * emulated service without a case here fails the coverage test at the end.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import type { ExecuteOptions, ToolResult } from '../../src/harness/types.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { toolIdsOf } from '../helpers/service-tables.js';

let sb: Sandbox;
let files: Server;
let fileUrl: string;
const covered = new Set<string>();

beforeAll(async () => {
  // 300 ms per job step: long enough for tinybird_cancel_job to find an import still waiting.
  files = createServer((_, res) => res.end('{"timestamp":"2026-11-22 12:00:00","event":"imported","user_id":"i1"}\n'));
  const filesAddress = await listenOnLoopback(files);
  fileUrl = `${filesAddress.origin}/rows.ndjson`;
  // The file server is an origin the sandbox may import from: given at start.
  sb = await startSandbox({ tinybird: { importFrom: [new URL(fileUrl).origin], jobStepMs: 300 }, workflow: { jobStepMs: 50 } });
});
afterAll(async () => {
  await sb?.close();
  await new Promise((resolve) => files?.close(resolve));
});

async function run(id: string, params: Record<string, unknown>, options: ExecuteOptions = {}): Promise<ToolResult<Record<string, unknown>>> {
  covered.add(id);
  const service = id.split('_')[0]!;
  const auth =
    service === 'tinybird'
      ? { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken }
      : service === 'loops'
        ? { apiKey: sb.credentials.loops.apiKey }
        : { base_url: sb.urls.workflow, apiKey: sb.credentials.workflow.apiKey };
  return executeTool(id, { ...auth, ...params }, { endpoints: { loops: sb.urls.loops }, ...options });
}

async function output(id: string, params: Record<string, unknown>, options?: ExecuteOptions) {
  const result = await run(id, params, options);
  if (!result.success) throw new Error(`${id} failed: ${result.error.code} ${result.error.message}`);
  return result.output;
}

describe('tinybird block', () => {
  it('tinybird_events: NDJSON, JSON and gzip, with quarantine counted', async () => {
    const ndjson = '{"timestamp":"2026-11-22 10:00:00","event":"signup","user_id":"c1"}\n{"timestamp":"nope","event":"bad","user_id":"c2"}';
    expect(await output('tinybird_events', { datasource: 'events', data: ndjson, wait: true })).toEqual({ successful_rows: 1, quarantined_rows: 1 });
    const json = '[{"timestamp":"2026-11-22 10:01:00","event":"login","user_id":"c1"},{"timestamp":"2026-11-22 10:02:00","event":"test","user_id":"c3"}]';
    expect(await output('tinybird_events', { datasource: 'events', data: json, format: 'json', compression: 'gzip' })).toEqual({ successful_rows: 2, quarantined_rows: 0 });
  });

  it('tinybird_query: FORMAT JSON rows, other formats as text', async () => {
    const json = await output('tinybird_query', { query: "SELECT event, user_id FROM events WHERE user_id = 'c1' ORDER BY event FORMAT JSON" });
    expect(json).toMatchObject({ data: [{ event: 'login', user_id: 'c1' }, { event: 'signup', user_id: 'c1' }], rows: 2, meta: [{ name: 'event' }, { name: 'user_id' }] });
    expect(await output('tinybird_query', { query: "SELECT 'a' AS x FORMAT CSV" })).toEqual({ data: '"a"\n' });
    const forbidden = await run('tinybird_query', { query: 'SELECT * FROM nowhere' });
    expect(forbidden).toMatchObject({ success: false, error: { code: 'forbidden', status: 403, message: "Resource 'nowhere' not found" } });
  });

  it('tinybird_query_pipe: parameters and q over _', async () => {
    const top = await output('tinybird_query_pipe', { pipe: 'top_events', parameters: { event: 'signup' } });
    expect(top).toMatchObject({ data: [{ event: 'signup', total: 1, users: 1 }], rows: 1 });
    const q = await output('tinybird_query_pipe', { pipe: 'top_events', q: 'SELECT sum(total) AS n FROM _' });
    expect(q.data).toEqual([{ n: 3 }]);
  });

  it('tinybird_append_datasource and tinybird_get_job: an import job to done', async () => {
    const job = await output('tinybird_append_datasource', { datasource: 'events', url: fileUrl, format: 'ndjson' });
    expect(job).toMatchObject({ status: 'waiting', job_id: job.id, import_id: job.id, datasource: { name: 'events' }, job: { kind: 'import' } });
    const done = await output('tinybird_get_job', { job_id: job.job_id, wait_for_completion: true, timeout_seconds: 20 });
    expect(done).toMatchObject({ id: job.id, status: 'done', kind: 'import' });
  });

  it('tinybird_delete_datasource_rows: dry run count, then a job with rows_affected', async () => {
    expect(await output('tinybird_delete_datasource_rows', { datasource: 'events', delete_condition: "event = 'test'", dry_run: true })).toEqual({ rows_to_be_deleted: 1 });
    const job = await output('tinybird_delete_datasource_rows', { datasource: 'events', delete_condition: "event = 'test'" });
    expect(job).toMatchObject({ status: 'waiting', delete_id: job.id, job: { kind: 'delete_data' } });
    expect(await output('tinybird_get_job', { job_id: job.job_id as string, wait_for_completion: true, timeout_seconds: 20 })).toMatchObject({ status: 'done', rows_affected: 1 });
  });

  it('tinybird_append_data: CSV with a dialect and NDJSON from the request body, imported at once', async () => {
    const csv = 'timestamp;event;user_id\n2026-11-22 11:00:00;appended;d1\n2026-11-22 11:01:00;appended;d2\n';
    expect(await output('tinybird_append_data', { datasource: 'events', data: csv, dialect_delimiter: ';' })).toMatchObject({ datasource: { name: 'events' }, invalid_lines: 0, quarantine_rows: 0, error: false });
    const ndjson = '{"timestamp":"2026-11-22 11:02:00","event":"appended","user_id":"d3"}\n{"timestamp":"bad","event":"appended","user_id":"d4"}';
    expect(await output('tinybird_append_data', { datasource: 'events', data: ndjson, format: 'ndjson' })).toMatchObject({ quarantine_rows: 1 });
    const counted = await output('tinybird_query', { query: "SELECT count() AS n FROM events WHERE event = 'appended' FORMAT JSON" });
    expect(counted.data).toEqual([{ n: 3 }]);
    expect(await output('tinybird_delete_datasource_rows', { datasource: 'events', delete_condition: "event = 'appended'", dry_run: true })).toEqual({ rows_to_be_deleted: 3 });
  });

  it('tinybird_list_datasources, tinybird_get_datasource: columns, types, engine, row count', async () => {
    const listed = await output('tinybird_list_datasources', {});
    const events = (listed.datasources as { name: string }[]).find((d) => d.name === 'events');
    expect(events).toMatchObject({ engine: { engine: 'MergeTree', engine_sorting_key: 'timestamp' }, columns: expect.arrayContaining([{ name: 'event', type: 'LowCardinality(String)', nullable: false, default_value: null, jsonpath: '$.event' }]) });
    const one = await output('tinybird_get_datasource', { datasource: 'events' });
    expect(one).toMatchObject({ name: 'events', statistics: { row_count: expect.any(Number) } });
    expect((one.statistics as { row_count: number }).row_count).toBeGreaterThan(0);
    expect(await run('tinybird_get_datasource', { datasource: 'missing' })).toMatchObject({ success: false, error: { code: 'not_found' } });
  });

  it('tinybird_list_pipes, tinybird_get_pipe: nodes and the endpoint\'s parameters', async () => {
    const { pipes } = await output('tinybird_list_pipes', {});
    expect(pipes).toEqual([expect.objectContaining({ name: 'top_events', type: 'endpoint' })]);
    const pipe = await output('tinybird_get_pipe', { pipe: 'top_events' });
    expect(pipe).toMatchObject({ name: 'top_events', nodes: [{ name: 'counted' }, { name: 'endpoint' }] });
    expect(pipe.parameters).toEqual([
      { name: 'event', type: 'String', default: null, required: false, description: '' },
      { name: 'limit', type: 'Int32', default: '10', required: false, description: '' },
    ]);
    expect(await run('tinybird_get_pipe', { pipe: 'nope' })).toMatchObject({ success: false, error: { code: 'not_found' } });
  });

  it('tinybird_list_jobs and tinybird_cancel_job: a waiting import cancelled', async () => {
    const job = await output('tinybird_append_datasource', { datasource: 'events', url: fileUrl, format: 'ndjson' });
    expect(await output('tinybird_cancel_job', { job_id: job.id })).toMatchObject({ id: job.id, status: 'cancelling' });
    const listed = await output('tinybird_list_jobs', { kind: 'import', status: 'cancelling' });
    expect(listed.jobs).toEqual([expect.objectContaining({ id: job.id, kind: 'import', status: 'cancelling', datasource: expect.objectContaining({ name: 'events' }) })]);
    expect(await output('tinybird_list_jobs', { kind: 'import', created_after: '2999-01-01T00:00:00Z' })).toEqual({ jobs: [] });
    expect(await run('tinybird_cancel_job', { job_id: job.id })).toMatchObject({ success: false, error: { code: 'bad_request', message: 'Job is already being cancelled' } });
    expect(await output('tinybird_get_job', { job_id: job.id, wait_for_completion: true, timeout_seconds: 20 })).toMatchObject({ status: 'cancelled' });
  });

  it('tinybird_create_token: a static token and a JWT that then work with their scopes', async () => {
    const made = await output('tinybird_create_token', { name: 'read_events', scopes: ['DATASOURCES:READ:events'] });
    expect(made).toMatchObject({ name: 'read_events', token: expect.stringMatching(/^p\./) });
    const described = await executeTool('tinybird_get_datasource', { base_url: sb.urls.tinybird, token: made.token as string, datasource: 'events' });
    expect(described).toMatchObject({ success: true, output: { name: 'events' } });
    const jwt = await output('tinybird_create_token', { name: 'top', kind: 'jwt', jwt_scopes: [{ type: 'PIPES:READ', resource: 'top_events' }], expires_at: Math.floor(Date.now() / 1000) + 3600 });
    const piped = await executeTool('tinybird_query_pipe', { base_url: sb.urls.tinybird, token: jwt.token as string, pipe: 'top_events' });
    expect(piped).toMatchObject({ success: true });
    const refused = await executeTool('tinybird_create_token', { base_url: sb.urls.tinybird, token: made.token as string, name: 'x', scopes: ['ADMIN'] });
    expect(refused).toMatchObject({ success: false, error: { code: 'forbidden' } });
  });

  it('tinybird_truncate_datasource: 205 read as truncated', async () => {
    await output('tinybird_events', { datasource: 'contract_scratch', data: '{"n":1}', wait: true });
    expect(await output('tinybird_truncate_datasource', { datasource: 'contract_scratch' })).toEqual({ truncated: true, result: null });
    expect(await run('tinybird_truncate_datasource', { datasource: 'missing' })).toMatchObject({ success: false, error: { code: 'not_found' } });
  });
});

describe('loops block', () => {
  it('loops_test_api_key', async () => {
    expect(await output('loops_test_api_key', {})).toEqual({ success: true, teamName: 'flowblocks sandbox' });
  });

  it('loops_create_contact, then 409 on the duplicate', async () => {
    const created = await output('loops_create_contact', { email: 'alex@company.com', firstName: 'Alex', userId: 'usr_alex', mailingLists: { cm_list_newsletter: true }, customProperties: { planName: 'Pro' } });
    expect(created).toMatchObject({ success: true, id: expect.any(String) });
    expect(await run('loops_create_contact', { email: 'alex@company.com' })).toMatchObject({ success: false, error: { code: 'conflict', status: 409 } });
  });

  it('loops_update_contact and loops_find_contact', async () => {
    expect(await output('loops_update_contact', { userId: 'usr_alex', email: 'alex+new@company.com', customProperties: { planName: null } })).toMatchObject({ success: true });
    const found = await output('loops_find_contact', { email: 'alex+new@company.com' });
    expect(found.contacts).toEqual([expect.objectContaining({ email: 'alex+new@company.com', firstName: 'Alex', userId: 'usr_alex', mailingLists: { cm_list_newsletter: true } })]);
    expect(await output('loops_find_contact', { userId: 'nobody' })).toEqual({ contacts: [] });
  });

  it('loops_send_transactional_email: into the outbox; a reused key is reported as sent once', async () => {
    const params = { email: 'alex+new@company.com', transactionalId: 'tx_welcome', dataVariables: { firstName: 'Alex', confirmationUrl: 'https://x.test' } };
    expect(await output('loops_send_transactional_email', params, { idempotencyKey: 'contract-1' })).toEqual({ success: true });
    const outbox = (await (await fetch(sb.admin.loopsOutbox)).json()) as { emails: { to: string }[] };
    expect(outbox.emails.filter((e) => e.to === 'alex+new@company.com')).toHaveLength(1);
    const missing = await run('loops_send_transactional_email', { ...params, dataVariables: { firstName: 'Alex' } });
    expect(missing).toMatchObject({ success: false, error: { code: 'bad_request', status: 400, message: 'Missing required data variable(s): confirmationUrl' } });
  });

  it('loops_send_event', async () => {
    expect(await output('loops_send_event', { email: 'alex+new@company.com', eventName: 'planUpgraded', eventProperties: { seats: 5 } })).toEqual({ success: true });
  });

  it('loops_list_mailing_lists, loops_list_transactional_emails, loops_list_contact_properties', async () => {
    expect((await output('loops_list_mailing_lists', {})).mailingLists).toHaveLength(2);
    const templates = await output('loops_list_transactional_emails', { perPage: 10 });
    expect(templates).toMatchObject({
      transactionalEmails: [
        { id: 'tx_execution_alert', published: true },
        { id: 'tx_draft_invoice', published: false, dataVariables: [] },
        { id: 'tx_daily_report', published: true },
        { id: 'tx_welcome', published: true },
      ],
      pagination: { nextCursor: null },
      endpoint: '/transactional-emails',
    });
    const props = await output('loops_list_contact_properties', { list: 'custom' });
    expect((props.properties as { key: string }[]).map((p) => p.key)).toEqual(['planName', 'signupCount']);
  });

  it('loops_get_transactional_email: the data variables a send needs, 404 for an unknown id', async () => {
    expect(await output('loops_get_transactional_email', { transactionalId: 'tx_welcome' })).toMatchObject({ id: 'tx_welcome', published: true, dataVariables: expect.arrayContaining(['firstName']) });
    expect(await output('loops_get_transactional_email', { transactionalId: 'tx_draft_invoice' })).toMatchObject({ published: false, dataVariables: [] });
    expect(await run('loops_get_transactional_email', { transactionalId: 'tx_nope' })).toMatchObject({ success: false, error: { code: 'not_found', message: 'Transactional email not found.' } });
  });

  it('loops_list_event_patterns, loops_get_event_pattern, loops_list_dedicated_sending_ips', async () => {
    const { eventPatterns } = await output('loops_list_event_patterns', {});
    expect(eventPatterns).toEqual([expect.objectContaining({ eventName: 'planUpgraded', incomingWebhookPlatform: null })]);
    const [pattern] = eventPatterns as { id: string }[];
    const byName = await output('loops_get_event_pattern', { eventName: 'planUpgraded' });
    expect(byName).toMatchObject({ id: pattern!.id, eventProperties: [{ name: 'seats', type: 'number' }] });
    expect(await output('loops_get_event_pattern', { eventPatternId: pattern!.id })).toEqual(byName);
    expect(await run('loops_get_event_pattern', { eventName: 'neverSent' })).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect(await output('loops_list_dedicated_sending_ips', {})).toEqual({ ips: ['203.0.113.10', '203.0.113.11'] });
  });

  it('loops_create_contact_property', async () => {
    expect(await output('loops_create_contact_property', { name: 'favoriteColor', type: 'string' })).toEqual({ success: true });
    expect(await run('loops_create_contact_property', { name: 'favoriteColor', type: 'string' })).toMatchObject({ success: false, error: { code: 'bad_request', message: 'Property already exists.' } });
  });

  it('loops_check_contact_suppression and loops_remove_contact_suppression', async () => {
    expect(await output('loops_check_contact_suppression', { email: 'bounced@example.com' })).toMatchObject({ isSuppressed: true, removalQuota: { limit: 5, remaining: 5 } });
    expect(await output('loops_remove_contact_suppression', { email: 'bounced@example.com' })).toMatchObject({ success: true, removalQuota: { remaining: 4 } });
    expect(await output('loops_check_contact_suppression', { email: 'bounced@example.com' })).toMatchObject({ isSuppressed: false });
  });

  it('loops_delete_contact, then 404', async () => {
    expect(await output('loops_delete_contact', { email: 'alex+new@company.com' })).toEqual({ success: true, message: 'Contact deleted.' });
    expect(await run('loops_delete_contact', { email: 'alex+new@company.com' })).toMatchObject({ success: false, error: { code: 'not_found', status: 404 } });
  });
});

describe('workflow block', () => {
  let executionId: string;

  it('workflow_execute: sync, and async waited to completion', async () => {
    const inputs = { email: 'flow@example.com', firstName: 'Flo', userId: 'u_flow' };
    const sync = await output('workflow_execute', { workflowId: 'wf_signup_pipeline', inputs });
    expect(sync).toMatchObject({ success: true, output: { ingested: 1, welcomeSent: true }, limits: { usage: { plan: 'team' } } });
    const waited = await output('workflow_execute', { workflowId: 'wf_daily_report', inputs: { email: 'ops@example.com' }, async: true, waitForCompletion: true });
    expect(waited).toMatchObject({ success: true, status: 'completed', output: { sent: true }, taskId: expect.any(String) });
    executionId = waited.executionId as string;
    expect(await run('workflow_execute', { workflowId: 'wf_draft' })).toMatchObject({ success: false, error: { code: 'forbidden', status: 403 } });
    expect(await run('workflow_execute', { workflowId: 'wf_signup_pipeline', inputs: {} })).toMatchObject({ success: false, error: { code: 'bad_request', status: 400 } });
  });

  it('workflow_get_job: queued at first, failed with the error for a broken run', async () => {
    const accepted = await output('workflow_execute', { workflowId: 'wf_broken_query', async: true });
    expect(accepted).toMatchObject({ status: 'queued' });
    const failed = await output('workflow_get_job', { taskId: accepted.taskId as string, waitForCompletion: true, timeoutSeconds: 20, pollIntervalSeconds: 0.1 });
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(/no_such_column/) });
    expect(failed).not.toHaveProperty('output');
  });

  it('workflow_list_logs: filters and a cursor walk with followCursor', async () => {
    const errors = await output('workflow_list_logs', { workspaceId: sb.credentials.workflow.workspaceId, level: 'error' });
    expect((errors.data as { workflowId: string }[]).map((e) => e.workflowId)).toEqual(['wf_broken_query']);
    const all = await output('workflow_list_logs', { workspaceId: sb.credentials.workflow.workspaceId, limit: 1, followCursor: true });
    expect(all.data).toHaveLength(3);
    expect(all.nextCursor).toBeNull();
    expect(await run('workflow_list_logs', { workspaceId: 'ws_other' })).toMatchObject({ success: false, error: { code: 'not_found' } });
  });

  it('workflow_get_log and workflow_get_execution', async () => {
    const [entry] = (await output('workflow_list_logs', { workspaceId: sb.credentials.workflow.workspaceId, executionId })).data as { id: string }[];
    const detail = await output('workflow_get_log', { id: entry!.id });
    expect(detail.data).toMatchObject({ executionId, workflow: { id: 'wf_daily_report' }, executionData: { finalOutput: { sent: true } }, limits: { usage: {} } });
    const execution = await output('workflow_get_execution', { executionId });
    expect(execution).toMatchObject({ executionId, workflowId: 'wf_daily_report', workflowState: { blocks: { totals: {}, report: {} } }, executionMetadata: { trigger: 'api' } });
    expect(await run('workflow_get_log', { id: 'log_missing' })).toMatchObject({ success: false, error: { code: 'not_found' } });
  });
});

describe('custom API calls', () => {
  it('tinybird_api_call, loops_api_call, workflow_api_call: a request under the base URL with the configured credential', async () => {
    expect(await output('tinybird_api_call', { path: '/v0/datasources/events' })).toMatchObject({ status: 200, body: { name: 'events', columns: expect.any(Array) } });
    expect(await output('tinybird_api_call', { path: '/v0/sql', query: { q: 'SELECT 1 AS one FORMAT JSON' } })).toMatchObject({ status: 200, body: { data: [{ one: 1 }] } });
    expect(await output('loops_api_call', { path: '/lists' })).toMatchObject({ status: 200, body: expect.arrayContaining([expect.objectContaining({ id: 'cm_list_newsletter' })]) });
    expect(await run('loops_api_call', { method: 'POST', path: '/events/send', body: { eventName: 'x' } })).toMatchObject({ success: false, error: { code: 'bad_request' } });
    const logs = await output('workflow_api_call', { path: '/api/v1/logs', query: { workspaceId: sb.credentials.workflow.workspaceId, limit: 1 } });
    expect(logs).toMatchObject({ status: 200, body: { data: [expect.objectContaining({ id: expect.any(String) })] } });
    expect(await run('workflow_api_call', { path: '/../tinybird/v0/sql' })).toMatchObject({ success: false, error: { code: 'invalid_params' } });
  });
});

it('covers every tool of every service the sandbox emulates', () => {
  expect([...covered].sort()).toEqual(toolIdsOf(Object.keys(sb.urls)));
});
