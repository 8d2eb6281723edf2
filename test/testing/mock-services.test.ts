import { describe, expect, it } from 'vitest';
import { createToolExecutor } from '../../src/hosts/agents/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { toSimTool } from '../../src/hosts/sim/index.js';
import { runN8nNode } from '../engines/n8n-context.js';
import { executeTool, getBlock, getTool, runTool } from '../../src/index.js';
import { mockServices } from '../../src/testing/index.js';
import { BASE_URLS, SECRETS } from './helpers.js';

const tinybird = { base_url: BASE_URLS.tinybird!, token: SECRETS.tinybird! };
const loops = { apiKey: SECRETS.loops! };

/** The small workflow of the docs: query Tinybird, then send one transactional e-mail per row. */
async function welcomeNewUsers(options: { dispatcher: ReturnType<typeof mockServices>; retry?: false }) {
  const rows = await executeTool('tinybird_query', { ...tinybird, query: 'SELECT email, name FROM signups FORMAT JSON' }, options);
  if (!rows.success) return { sent: 0, error: rows.error.code };
  let sent = 0;
  for (const row of rows.output.data as { email: string; name: string }[]) {
    const result = await executeTool('loops_send_transactional_email', { ...loops, transactionalId: 'welcome', email: row.email, dataVariables: { name: row.name } }, options);
    if (result.success) sent++;
  }
  return { sent };
}

describe('mockServices', () => {
  it('answers each tool with its fixture and keeps the requests by tool id, as sent', async () => {
    const mock = mockServices();
    mock.reply('tinybird_query', { meta: [], data: [{ email: 'ada@example.com', name: 'Ada' }, { email: 'alan@example.com', name: 'Alan' }], rows: 2, statistics: { elapsed: 0.001, rows_read: 2, bytes_read: 64 } });
    expect(await welcomeNewUsers({ dispatcher: mock })).toEqual({ sent: 2 });

    const [query] = mock.calls('tinybird_query');
    expect(query).toMatchObject({ method: 'POST', path: '/v0/sql', query: {}, body: { q: 'SELECT email, name FROM signups FORMAT JSON' }, outcome: 200, delivered: true });
    expect(query!.headers).toMatchObject({ authorization: 'Bearer [redacted]', 'content-type': 'application/x-www-form-urlencoded' });
    const sends = mock.calls('loops_send_transactional_email');
    expect(sends.map((call) => call.params)).toEqual([
      { transactionalId: 'welcome', email: 'ada@example.com', addToAudience: false, dataVariables: { name: 'Ada' } },
      { transactionalId: 'welcome', email: 'alan@example.com', addToAudience: false, dataVariables: { name: 'Alan' } },
    ]);
    expect(sends.map((call) => call.path)).toEqual(['/api/v1/transactional', '/api/v1/transactional']);
    expect(sends[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(mock.calls().map((call) => call.toolId)).toEqual(['tinybird_query', 'loops_send_transactional_email', 'loops_send_transactional_email']);
  });

  it('names path params by the tool param they come from', async () => {
    const mock = mockServices();
    const result = await executeTool('tinybird_get_datasource', { ...tinybird, datasource: 'page_views' }, { dispatcher: mock });
    expect(result.success).toBe(true);
    expect(mock.calls('tinybird_get_datasource')[0]).toMatchObject({ path: '/v0/datasources/page_views', params: { datasource: 'page_views' } });
    await executeTool('loops_get_event_pattern', { ...loops, eventPatternId: 'pat_1' }, { dispatcher: mock });
    await executeTool('loops_get_event_pattern', { ...loops, eventName: 'signup' }, { dispatcher: mock });
    expect(mock.calls('loops_get_event_pattern').map((call) => call.params)).toEqual([{ eventPatternId: 'pat_1' }, { eventName: 'signup' }]);
    // /v0/pipes/top.json is the pipe's endpoint (query_pipe), not the pipe named "top.json" (get_pipe).
    await executeTool('tinybird_query_pipe', { ...tinybird, pipe: 'top', parameters: { day: '2026-11-27' } }, { dispatcher: mock });
    await executeTool('tinybird_get_pipe', { ...tinybird, pipe: 'top' }, { dispatcher: mock });
    expect(mock.calls('tinybird_query_pipe').map((call) => call.params)).toEqual([{ pipe: 'top', day: '2026-11-27' }]);
    expect(mock.calls('tinybird_get_pipe').map((call) => call.params)).toEqual([{ pipe: 'top' }]);
  });

  it('fails with the documented answer, a fixed number of times, then answers again (retries see the sequence)', async () => {
    const mock = mockServices().fail('tinybird_query', 'rate_limited', { times: 1, retryAfterSeconds: 0 });
    const result = await executeTool('tinybird_query', { ...tinybird, query: 'SELECT 1 FORMAT JSON' }, { dispatcher: mock });
    expect(result).toMatchObject({ success: true, meta: { attempts: 2, status: 200 } });
    expect(mock.calls('tinybird_query').map((call) => call.outcome)).toEqual([429, 200]);
  });

  it('keeps the 429 headers of the documents (Retry-After, X-RateLimit-*) in what it answers', async () => {
    const mock = mockServices().fail('tinybird_query', 'rate_limited');
    const result = await executeTool('tinybird_query', { ...tinybird, query: 'SELECT 1 FORMAT JSON' }, { dispatcher: mock, retry: false });
    expect(result).toMatchObject({ success: false, error: { code: 'rate_limited', status: 429, retryAfterMs: 1000 }, meta: { rateLimit: { limit: 10, remaining: 0 } } });
  });

  it('plays a sequence of answers in order, then the standing answer', async () => {
    const mock = mockServices().sequence('loops_find_contact', [{ fail: 'upstream_error' }, { reply: [] }]);
    const first = await executeTool('loops_find_contact', { ...loops, email: 'a@b.co' }, { dispatcher: mock, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(first).toMatchObject({ success: true, output: { contacts: [] }, meta: { attempts: 2 } });
    const second = await executeTool('loops_find_contact', { ...loops, email: 'a@b.co' }, { dispatcher: mock });
    expect(second.success && second.output.contacts[0]?.email).toBe('adam@loops.so');
  });

  it('a standing reply replaces the fixture until reset()', async () => {
    const mock = mockServices().reply('loops_test_api_key', { success: true, teamName: 'Acme' });
    expect(await executeTool('loops_test_api_key', loops, { dispatcher: mock })).toMatchObject({ success: true, output: { teamName: 'Acme' } });
    mock.reset();
    expect(mock.calls()).toEqual([]);
    expect(await executeTool('loops_test_api_key', loops, { dispatcher: mock })).toMatchObject({ success: true, output: { teamName: 'Company name' } });
  });

  it('refuses an override for a tool it does not know, or a failure the tool has no fixture for, naming them', () => {
    const mock = mockServices();
    expect(() => mock.reply('loops_find_contacts' as string, [])).toThrow(/no tool "loops_find_contacts"/);
    expect(() => mock.fail('loops_find_contact', 'forbidden')).toThrow('loops_find_contact has no forbidden fixture');
    expect(() => mock.fail('loops_find_contact', 'upstream_error', { times: 0 })).toThrow(/times must be/);
    expect(() => mock.reply('__proto__' as string, {})).toThrow(/no tool "__proto__"/);
    expect(() => mock.sequence('constructor' as string, [])).toThrow(/no tool "constructor"/);
    expect(mock.calls('__proto__' as string)).toEqual([]);
  });

  it('fails a request no tool makes loudly, naming method and path, once (not retried), and lists it once', async () => {
    const mock = mockServices();
    // Default options: a read that a network fault would have retried three times.
    const result = await executeTool('tinybird_api_call', { ...tinybird, method: 'GET', path: '/v0/nothing-here' }, { dispatcher: mock });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', status: 404, retryable: false }, meta: { attempts: 1 } });
    if (!result.success) expect(result.error.message).toBe(`flowblocks/testing: no tool's endpoint is GET /v0/nothing-here (${BASE_URLS.tinybird}); the mock answers only the tools' own endpoints`);
    expect(mock.unmatched()).toHaveLength(1);
    expect(mock.unmatched()).toMatchObject([{ method: 'GET', path: '/v0/nothing-here', origin: BASE_URLS.tinybird }]);
    expect(JSON.stringify(mock.unmatched())).not.toContain(SECRETS.tinybird);
  });

  it('answers a custom api_call with the fixture of the endpoint its path names', async () => {
    const mock = mockServices();
    const result = await executeTool('loops_api_call', { ...loops, method: 'GET', path: '/api-key' }, { dispatcher: mock });
    expect(result).toMatchObject({ success: true, output: { status: 200, body: { teamName: 'Company name' } } });
    expect(mock.calls('loops_test_api_key')).toHaveLength(1);
  });

  it('serves runTool and the agents executor through the same dispatcher', async () => {
    const mock = mockServices();
    const run = await runTool(getTool('workflow_get_log'), { base_url: BASE_URLS.workflow!, apiKey: SECRETS.workflow!, id: 'log_7' }, { dispatcher: mock });
    expect(run).toMatchObject({ success: true, output: { data: { id: 'log_7' } } });
    const executor = createToolExecutor({ settings: { tinybird }, execute: { dispatcher: mock } });
    expect(await executor.execute('tinybird_list_pipes', {})).toMatchObject({ ok: true, output: { pipes: [{ name: 'top_products' }] } });
    expect(mock.calls().map((call) => call.toolId)).toEqual(['workflow_get_log', 'tinybird_list_pipes']);
  });

  it('serves an n8n node through its execute options', async () => {
    const mock = mockServices();
    const { Node } = toN8nNode(getBlock('tinybird'), { execute: { dispatcher: mock } });
    const { output } = await runN8nNode({ node: new Node(), parameters: { operation: 'query', query: 'SELECT 1 FORMAT JSON' } as never, credentials: { token: SECRETS.tinybird, baseUrl: BASE_URLS.tinybird } as never });
    expect(output).toEqual([[{ json: { VendorID: 2, ts: '2001-01-05 11:45:23' }, pairedItem: { item: 0 } }]]);
    expect(mock.calls('tinybird_query')).toMatchObject([{ body: { q: 'SELECT 1 FORMAT JSON' }, headers: { authorization: 'Bearer [redacted]' } }]);
  });

  it('serves the Sim adapter through its execute options', async () => {
    const mock = mockServices().reply('loops_find_contact', []);
    const simTool = toSimTool(getTool('loops_find_contact'), { execute: { dispatcher: mock } });
    expect(await simTool.directExecution({ ...loops, email: 'nobody@example.com' })).toMatchObject({ success: true, output: { contacts: [] } });
    expect(mock.calls('loops_find_contact')).toMatchObject([{ query: { email: 'nobody@example.com' } }]);
  });
});

describe('secrets', () => {
  it('never keeps a secret passed in params in calls(): not the credential, not the same value in a body or a path, in no encoding', async () => {
    const secret = SECRETS.loops!;
    const extra = 'extra secret/value+1';
    const mock = mockServices({ secrets: [extra] });
    await executeTool('loops_send_event', { apiKey: secret, eventName: 'signup', email: 'a@b.co', eventProperties: { leaked: secret, other: extra } }, { dispatcher: mock });
    await executeTool('workflow_get_log', { base_url: BASE_URLS.workflow!, apiKey: SECRETS.workflow!, id: `log ${SECRETS.workflow}` }, { dispatcher: mock });
    await executeTool('tinybird_get_datasource', { ...tinybird, datasource: 'x' }, { dispatcher: mock });
    await executeTool('tinybird_query_pipe', { ...tinybird, pipe: 'top', parameters: { echo: `${SECRETS.tinybird} +/` } }, { dispatcher: mock });
    const kept = JSON.stringify(mock.calls());
    expect(mock.calls('workflow_get_log')[0]).toMatchObject({ path: '/api/v1/logs/log [redacted]', params: { id: 'log [redacted]' } });
    for (const value of [secret, SECRETS.tinybird!, SECRETS.workflow!, extra]) {
      expect(kept).not.toContain(value);
      expect(kept).not.toContain(encodeURIComponent(value));
    }
    expect(mock.calls('loops_send_event')[0]!.params).toMatchObject({ eventProperties: { leaked: '[redacted]', other: '[redacted]' } });
    expect(mock.calls('tinybird_query_pipe')[0]!.query).toMatchObject({ echo: '[redacted] +/' });
  });
});

describe('faults for retry logic', () => {
  it('timeout: the service never answers, the call ends at its time limit', async () => {
    const mock = mockServices().fail('tinybird_query', 'timeout');
    const result = await executeTool('tinybird_query', { ...tinybird, query: 'SELECT 1 FORMAT JSON' }, { dispatcher: mock, timeoutMs: 50, retry: false });
    expect(result).toMatchObject({ success: false, error: { code: 'timeout' } });
    expect(mock.calls('tinybird_query')).toMatchObject([{ outcome: 'timeout', delivered: false }]);
  });

  it('connection_reset: a cut before the service read the request; a read is retried', async () => {
    const mock = mockServices().fail('tinybird_list_pipes', 'connection_reset', { times: 1 });
    const result = await executeTool('tinybird_list_pipes', tinybird, { dispatcher: mock, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(result).toMatchObject({ success: true, meta: { attempts: 2 } });
    expect(mock.calls('tinybird_list_pipes').map((call) => [call.outcome, call.delivered])).toEqual([['connection_reset', false], [200, true]]);
  });

  it('reset_after_write: the e-mail went out, the answer was lost; the retry with the same key meets 409 and is reported as sent', async () => {
    const mock = mockServices().sequence('loops_send_transactional_email', [{ fail: 'reset_after_write' }, { fail: 'conflict' }]);
    const result = await executeTool('loops_send_transactional_email', { ...loops, transactionalId: 'welcome', email: 'a@b.co' }, { dispatcher: mock, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(result).toMatchObject({ success: true, meta: { attempts: 2, notes: [expect.stringContaining('409')] } });
    const sends = mock.calls('loops_send_transactional_email');
    expect(sends.map((call) => [call.outcome, call.delivered])).toEqual([['reset_after_write', true], [409, true]]);
    expect(sends[0]!.headers['idempotency-key']).toBe(sends[1]!.headers['idempotency-key']);
  });

  it('reset_after_write on an ingest: stopped and reported as unknown by default; sent again (rows twice) with on_ambiguous retry', async () => {
    const data = '{"a":1}\n{"a":2}';
    const stop = mockServices().fail('tinybird_events', 'reset_after_write', { times: 1 });
    const stopped = await executeTool('tinybird_events', { ...tinybird, datasource: 'events', data }, { dispatcher: stop, retry: { baseDelayMs: 1 } });
    expect(stopped).toMatchObject({ success: false, error: { code: 'network', message: expect.stringContaining('outcome unknown') }, meta: { attempts: 1 } });
    expect(stop.calls('tinybird_events')).toMatchObject([{ delivered: true, body: [{ a: 1 }, { a: 2 }] }]);

    const again = mockServices().fail('tinybird_events', 'reset_after_write', { times: 1 });
    const retried = await executeTool('tinybird_events', { ...tinybird, datasource: 'events', data, on_ambiguous: 'retry' }, { dispatcher: again, retry: { baseDelayMs: 1 } });
    expect(retried).toMatchObject({ success: true, output: { successful_rows: 2 } });
    // Both requests were acted on: the same two rows are in the Data Source twice.
    expect(again.calls('tinybird_events').map((call) => [call.delivered, call.query])).toEqual([
      [true, { name: 'events' }],
      [true, { name: 'events', wait: 'true' }],
    ]);
  });

  it('reset_after_write without a retry: the caller sees a network error and must reconcile', async () => {
    const mock = mockServices().fail('tinybird_append_datasource', 'reset_after_write');
    const result = await executeTool('tinybird_append_datasource', { ...tinybird, datasource: 'events', url: 'https://example.com/a.csv' }, { dispatcher: mock, retry: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(result).toMatchObject({ success: false, error: { code: 'network' }, meta: { attempts: 1 } });
    expect(mock.calls('tinybird_append_datasource')).toMatchObject([{ delivered: true, params: { mode: 'append', name: 'events', url: 'https://example.com/a.csv' } }]);
  });
});
