/**
 * One valid call per tool for the fault matrix and the canary: params (without credentials),
 * the success reply a fault-free service sends, and whether the call is safe to repeat after
 * a 5xx or a network fault (written by hand from each tool's contract, not read from the code).
 */
import { CASES as LOOPS_CASES } from '../tools/loops/cases.js';
import { EXECUTION_DETAIL, LOG_DETAIL, logEntry } from '../tools/workflow/fixtures.js';

export interface ReliabilityCase {
  id: string;
  params: Record<string, unknown>;
  reply: { status: number; body?: unknown };
  /** A 5xx, time-out or dropped connection may be retried. */
  safe: boolean;
  /** Statuses after which the service did nothing, so even an unsafe call is retried. */
  nothingDone?: number[];
}

const JOB = { kind: 'import', id: 'job_1', job_id: 'job_1', status: 'done', datasource: { id: 't_1', name: 'events' } };
const envelope = (kind: string) => ({ id: 'job_1', job_id: 'job_1', job_url: 'http://127.0.0.1/v0/jobs/job_1', job: { ...JOB, kind, status: 'waiting' }, status: 'waiting' });
const DATASOURCE = { id: 't_1', name: 'events', engine: { engine: 'MergeTree' }, columns: [{ name: 'event', type: 'String' }], statistics: { bytes: 1, row_count: 1 } };
const PIPE = { id: 'p_1', name: 'top_events', type: 'endpoint', endpoint: 'n_1', nodes: [{ id: 'n_1', name: 'endpoint', sql: 'SELECT 1', params: [] }] };
const QUERY_BODY = { meta: [{ name: 'n', type: 'UInt8' }], data: [{ n: 1 }], rows: 1, statistics: { elapsed: 0.001, rows_read: 1, bytes_read: 1 } };

const TINYBIRD: ReliabilityCase[] = [
  // Ingest without wait is not safe, but the Events API's 503 means nothing was written.
  { id: 'tinybird_events', params: { datasource: 'events', data: '{"n":1}' }, reply: { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } }, safe: false, nothingDone: [503] },
  { id: 'tinybird_query', params: { query: 'SELECT 1 AS n FORMAT JSON' }, reply: { status: 200, body: QUERY_BODY }, safe: true },
  { id: 'tinybird_query_pipe', params: { pipe: 'top_events' }, reply: { status: 200, body: QUERY_BODY }, safe: true },
  { id: 'tinybird_append_datasource', params: { datasource: 'events', url: 'http://127.0.0.1:9/rows.csv', format: 'csv' }, reply: { status: 200, body: { ...envelope('import'), import_id: 'job_1' } }, safe: false },
  { id: 'tinybird_append_data', params: { datasource: 'events', data: 'a,b\n1,2\n' }, reply: { status: 200, body: { import_id: 'i1', datasource: { id: 't_1', name: 'events' }, invalid_lines: 0, quarantine_rows: 0, error: false } }, safe: false },
  { id: 'tinybird_truncate_datasource', params: { datasource: 'events' }, reply: { status: 205 }, safe: true },
  { id: 'tinybird_delete_datasource_rows', params: { datasource: 'events', delete_condition: "event = 'x'" }, reply: { status: 201, body: { ...envelope('delete_data'), delete_id: 'job_1' } }, safe: false },
  { id: 'tinybird_get_job', params: { job_id: 'job_1' }, reply: { status: 200, body: JOB }, safe: true },
  { id: 'tinybird_list_datasources', params: {}, reply: { status: 200, body: { datasources: [DATASOURCE] } }, safe: true },
  { id: 'tinybird_get_datasource', params: { datasource: 'events' }, reply: { status: 200, body: DATASOURCE }, safe: true },
  { id: 'tinybird_list_pipes', params: {}, reply: { status: 200, body: { pipes: [PIPE] } }, safe: true },
  { id: 'tinybird_get_pipe', params: { pipe: 'top_events' }, reply: { status: 200, body: PIPE }, safe: true },
  { id: 'tinybird_list_jobs', params: { kind: 'import' }, reply: { status: 200, body: { jobs: [JOB] } }, safe: true },
  // A repeated cancel of a job already cancelling answers 400, so it is not repeated blindly.
  { id: 'tinybird_create_token', params: { name: 'read_events', scopes: ['DATASOURCES:READ:events'] }, reply: { status: 200, body: { token: 'p.new', name: 'read_events' } }, safe: false },
  { id: 'tinybird_api_call', params: { path: '/v0/datasources/events' }, reply: { status: 200, body: DATASOURCE }, safe: true },
  { id: 'tinybird_cancel_job', params: { job_id: 'job_1' }, reply: { status: 200, body: { ...JOB, status: 'cancelling' } }, safe: false },
];

/** Loops calls that carry an Idempotency-Key, or are idempotent, are safe. */
const LOOPS_SAFE = new Set([
  'loops_update_contact', 'loops_find_contact', 'loops_delete_contact', 'loops_send_transactional_email', 'loops_send_event',
  'loops_list_mailing_lists', 'loops_list_transactional_emails', 'loops_get_transactional_email', 'loops_list_event_patterns', 'loops_get_event_pattern', 'loops_list_dedicated_sending_ips', 'loops_list_contact_properties', 'loops_check_contact_suppression',
  'loops_test_api_key',
]);
const LOOPS: ReliabilityCase[] = LOOPS_CASES.map((c) => ({
  id: c.id,
  params: c.params,
  reply: { status: 200, body: c.reply },
  safe: LOOPS_SAFE.has(c.id),
}));

LOOPS.push({ id: 'loops_api_call', params: { path: '/lists' }, reply: { status: 200, body: [] }, safe: true });

const WORKFLOW: ReliabilityCase[] = [
  { id: 'workflow_api_call', params: { method: 'POST', path: '/api/workflows/wf_1/execute', body: { a: 1 } }, reply: { status: 200, body: { success: true } }, safe: false },
  { id: 'workflow_execute', params: { workflowId: 'wf_1', inputs: { a: 1 } }, reply: { status: 200, body: { success: true, executionId: 'exec_1', output: { ok: true } } }, safe: false },
  { id: 'workflow_get_job', params: { taskId: 'task_1' }, reply: { status: 200, body: { taskId: 'task_1', status: 'completed', output: { ok: true } } }, safe: true },
  { id: 'workflow_list_logs', params: { workspaceId: 'ws_1' }, reply: { status: 200, body: { data: [logEntry(1)] } }, safe: true },
  { id: 'workflow_get_log', params: { id: 'log_7' }, reply: { status: 200, body: { data: LOG_DETAIL } }, safe: true },
  { id: 'workflow_get_execution', params: { executionId: 'exec_7' }, reply: { status: 200, body: EXECUTION_DETAIL }, safe: true },
];

export const TOOL_CASES: ReliabilityCase[] = [...TINYBIRD, ...LOOPS, ...WORKFLOW];

/** Credentials for one call: unique values, so any leak names the case it came from. */
export interface Canaries {
  token: string;
  apiKey: string;
}

/** The params with credentials and base URL for `origin` (the fault server). */
export function withAuth(c: ReliabilityCase, origin: string, secrets: Canaries): Record<string, unknown> {
  const service = c.id.split('_')[0];
  if (service === 'tinybird') return { base_url: `${origin}/tinybird`, token: secrets.token, ...c.params };
  if (service === 'loops') return { apiKey: secrets.apiKey, ...c.params };
  return { base_url: `${origin}/workflow`, apiKey: secrets.apiKey, ...c.params };
}
