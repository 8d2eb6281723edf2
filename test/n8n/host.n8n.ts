/**
 * `n8n-nodes-flowblocks` inside a real n8n (`npm run test:n8n`): the package is built and
 * packed from this repository, installed into a fresh `N8N_USER_FOLDER` as n8n's own installer
 * does (`~/.n8n/nodes`, scripts off, peers left to the host), its credentials and workflows
 * imported with n8n's CLI and run with `n8n execute --id` against the sandbox. What n8n stored
 * (status, run data, the error) is read back from its database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureN8n, importIntoN8n, installBuiltPackage, n8n, N8N_VERSION, readExecutions, type StoredExecution } from '../../scripts/n8n-host.js';
import { CREDENTIAL_TEST_TIMEOUT_MS } from '../../src/hosts/n8n/credential-authenticate.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const PKG = 'n8n-nodes-flowblocks';
let sb: Sandbox;
let home: string;
/** A service that takes a request and never answers: it records whether the caller gave up on it. */
let hang: Server;
let hangUrl: string;
const hung: { url: string; userAgent?: string; closedBeforeAnswer: boolean; afterMs?: number }[] = [];
/** Another web app at a base URL (as the n8n editor is): every path answers 200 with its page. */
const webApp = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>n8n.io</title>${'<div id="app"></div>'.repeat(200)}`));
/** A pass-through to the sandbox's Tinybird that records each request: how many Send Events made. */
let counting: Server;
const counted: { method: string; url: string; body: string }[] = [];

/**
 * A Loops API that answers after the credential test's time limit: what the HTTP Request node
 * ("Custom API Call") sent it, and when. Only the test's request is bounded; this one waits.
 */
let slow: Server;
let slowUrl: string;
const slowAsked: { url: string; authorization: string | undefined }[] = [];
const SLOW_ANSWER_MS = CREDENTIAL_TEST_TIMEOUT_MS + 2_000;

const credentialRef = (type: string, id: string) => ({ [type]: { id, name: id } });
const node = (name: string, type: string, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: name.replaceAll(' ', '-'),
  name,
  type,
  typeVersion: 1,
  position: [0, 0],
  parameters,
  ...extra,
});
const start = node('Start', 'n8n-nodes-base.manualTrigger', {});
const main = (...targets: string[]) => ({ main: [targets.map((t) => ({ node: t, type: 'main', index: 0 }))] });
const tinybird = (name: string, parameters: Record<string, unknown>, credential = 'tinybirdSandbox0') =>
  node(name, `${PKG}.flowblocksTinybird`, parameters, { credentials: credentialRef('flowblocksTinybirdApi', credential) });
const loops = (name: string, parameters: Record<string, unknown>) =>
  node(name, `${PKG}.flowblocksLoops`, parameters, { credentials: credentialRef('flowblocksLoopsApi', 'loopsSandbox0000') });
const platform = (name: string, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  node(name, `${PKG}.flowblocksWorkflow`, parameters, { credentials: credentialRef('flowblocksWorkflowApi', 'workflowSandbox0'), ...extra });
const missingLog = { resource: 'log', operation: 'getLog', id: 'log_missing' };
/** A resource locator's value as n8n stores one typed by name. */
const byName = (value: string) => ({ __rl: true, mode: 'name', value });
const noOp = (name: string) => node(name, 'n8n-nodes-base.noOp', {});
/**
 * The Tool Executor's query as the host's version reads it: 2.x takes each tool's arguments under
 * the tool's name, 1.x hands the whole query to the tool as its arguments.
 */
const toolExecutorQuery = (tool: string, args: Record<string, unknown>) => JSON.stringify(Number(N8N_VERSION.split('.')[0]) >= 2 ? { [tool]: args } : args);

const workflow = (id: string, nodes: unknown[], connections: Record<string, unknown>, settings: Record<string, unknown> = {}) => ({
  id,
  name: id,
  active: false,
  nodes,
  connections,
  settings: { executionOrder: 'v1', ...settings },
});

/** n8n's HTTP Request node with a credential of the package ("Predefined Credential Type"), as n8n's "Custom API Call" opens it. */
const httpRequest = (name: string, url: string, credential: string) =>
  node(name, 'n8n-nodes-base.httpRequest', { method: 'GET', url, authentication: 'predefinedCredentialType', nodeCredentialType: 'flowblocksLoopsApi', options: {} }, {
    typeVersion: 4.2,
    credentials: credentialRef('flowblocksLoopsApi', credential),
  });

/** The HTTP Request node with the Loops credential: the key from its `authenticate`, and its own time limit kept (its URLs are known once the servers listen). */
const customCallWorkflow = (sandboxUrl: string, slowServerUrl: string) =>
  workflow('fbCustomCall0001', [start, httpRequest('Sandbox call', sandboxUrl, 'loopsSandbox0000'), httpRequest('Slow call', slowServerUrl, 'loopsSandbox0000')], {
    Start: main('Sandbox call'),
    'Sandbox call': main('Slow call'),
  });

const workflows = {
  // Every block in one run, the error output, continue-on-fail and a Tool variant through the Tool Executor.
  main: workflow(
    'fbMainFlow000001',
    [
      start,
      tinybird('Tinybird query', { resource: 'query', operation: 'query', query: 'SELECT 1 AS one FORMAT JSON' }),
      // Gzip in n8n is the web's CompressionStream (node:zlib is not in the package): the sandbox inflates it.
      tinybird('Tinybird events gzip', { resource: 'dataSource', operation: 'events', datasource: byName('events'), data: '{"timestamp": "2026-01-01 00:00:00", "event": "n8n", "user_id": "n8n_1"}\n{"timestamp": "not a time", "event": "n8n", "user_id": "n8n_2"}\n', wait: true, compression: 'gzip' }),
      loops('Loops event', { resource: 'event', operation: 'sendEvent', eventName: 'signup', additionalFields: { email: 'n8n-host@example.com' } }),
      platform('Workflow execute', { resource: 'execution', operation: 'execute', workflowId: 'wf_daily_report', inputs: '{"email": "n8n-host@example.com"}' }),
      // The workflow's page in Sim's editor, pasted "By URL": n8n extracts the id with the mode's pattern.
      platform('Workflow execute by URL', { resource: 'execution', operation: 'execute', workflowId: { __rl: true, mode: 'url', value: 'https://sim.example/workspace/ws_1/w/wf_daily_report?panel=logs' }, inputs: '{"email": "n8n-url@example.com"}' }),
      platform('Missing log to error output', missingLog, { onError: 'continueErrorOutput' }),
      noOp('Succeeded'),
      noOp('Failed'),
      platform('Missing log, continue', missingLog, { onError: 'continueRegularOutput' }),
      noOp('After continue'),
      node('Web page query', `${PKG}.flowblocksTinybird`, { resource: 'query', operation: 'query', query: 'SELECT 1 FORMAT JSON' }, {
        credentials: credentialRef('flowblocksTinybirdApi', 'tinybirdWebPage0'),
        onError: 'continueRegularOutput',
      }),
      node('Run tool', '@n8n/n8n-nodes-langchain.toolExecutor', { query: toolExecutorQuery('LoopsTool', { email: 'n8n-host@example.com' }) }),
      node('LoopsTool', `${PKG}.flowblocksLoopsTool`, {
        resource: 'contact',
        operation: 'findContact',
        additionalFields: { email: "={{ $fromAI('email', 'E-mail of the contact', 'string') }}" },
      }, { credentials: credentialRef('flowblocksLoopsApi', 'loopsSandbox0000') }),
    ],
    {
      Start: main('Tinybird query', 'Tinybird events gzip', 'Missing log to error output', 'Missing log, continue', 'Run tool'),
      'Tinybird query': main('Loops event'),
      'Loops event': main('Workflow execute'),
      'Workflow execute': main('Workflow execute by URL'),
      'Missing log to error output': {
        main: [[{ node: 'Succeeded', type: 'main', index: 0 }], [{ node: 'Failed', type: 'main', index: 0 }]],
      },
      'Missing log, continue': main('After continue'),
      'After continue': main('Web page query'),
      LoopsTool: { ai_tool: [[{ node: 'Run tool', type: 'ai_tool', index: 0 }]] },
    },
  ),
  // One item per row of a query, and those items sent by Send Events (`={{ $json }}`) as one request.
  records: workflow(
    'fbRecordsBatch01',
    [
      start,
      tinybird('Three rows', {
        resource: 'query',
        operation: 'query',
        query: "SELECT '2026-01-01 00:00:00' AS timestamp, 'n8n_batch' AS event, concat('u', toString(number)) AS user_id FROM numbers(3) FORMAT JSON",
      }),
      // A Data Source of its own: it appears with the first events, beside the sandbox's `events`.
      tinybird('Send rows as events', { resource: 'dataSource', operation: 'events', datasource: byName('n8n_batch'), data: '={{ $json }}', wait: true }, 'tinybirdCounted0'),
      tinybird('All Data Sources', { resource: 'dataSource', operation: 'listDatasources', returnAll: true }),
      tinybird('One Data Source', { resource: 'dataSource', operation: 'listDatasources', returnAll: false, limit: 1 }),
    ],
    { Start: main('Three rows'), 'Three rows': main('Send rows as events'), 'Send rows as events': main('All Data Sources', 'One Data Source') },
  ),
  stop: workflow('fbStopOnFail0001', [start, platform('Missing log', missingLog)], { Start: main('Missing log') }),
  timeout: workflow(
    'fbTimeout0000001',
    [start, tinybird('Slow query', { resource: 'query', operation: 'query', query: 'SELECT 1 FORMAT JSON' }, 'tinybirdHanging0')],
    { Start: main('Slow query') },
    // n8n's own execution time-out, in seconds.
    { executionTimeout: 3 },
  ),
};

const executions = new Map<string, StoredExecution>();
/** What each `n8n execute` printed, and its exit code. */
const cli = new Map<string, { code: number | null; output: string }>();
const outputOf = (e: StoredExecution, name: string, output = 0) => e.data.resultData.runData[name]?.[0]?.data?.main?.[output] ?? null;

beforeAll(async () => {
  const installSeconds = ensureN8n();
  if (installSeconds) console.log(`n8n ${N8N_VERSION} installed into the cache in ${installSeconds} s`);
  home = mkdtempSync(join(tmpdir(), 'flowblocks-n8n-'));
  await installBuiltPackage(home);

  sb = await startSandbox({ servicePorts: false });
  hang = createServer((req, res) => {
    const entry: (typeof hung)[number] = { url: req.url ?? '', userAgent: req.headers['user-agent'], closedBeforeAnswer: false };
    const received = performance.now();
    hung.push(entry);
    res.on('close', () => {
      entry.closedBeforeAnswer = !res.writableEnded;
      entry.afterMs = Math.round(performance.now() - received);
    });
  });
  ({ origin: hangUrl } = await listenOnLoopback(hang));
  const { origin: webAppUrl } = await listenOnLoopback(webApp);
  const target = new URL(sb.urls.tinybird);
  counting = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      counted.push({ method: req.method ?? '', url: req.url ?? '', body: body.toString('utf8') });
      const forward = request({ host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${req.url}`, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.end(body);
    });
  });
  const { origin: countingUrl } = await listenOnLoopback(counting);
  slow = createServer((req, res) => {
    slowAsked.push({ url: req.url ?? '', authorization: req.headers.authorization });
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"teamName":"slow"}'), SLOW_ANSWER_MS);
  });
  ({ origin: slowUrl } = await listenOnLoopback(slow));

  const credentials = [
    { id: 'tinybirdSandbox0', name: 'tinybirdSandbox0', type: 'flowblocksTinybirdApi', data: { token: sb.credentials.tinybird.adminToken, baseUrl: sb.urls.tinybird } },
    { id: 'tinybirdHanging0', name: 'tinybirdHanging0', type: 'flowblocksTinybirdApi', data: { token: 'p.hanging', baseUrl: hangUrl } },
    { id: 'tinybirdWebPage0', name: 'tinybirdWebPage0', type: 'flowblocksTinybirdApi', data: { token: 'p.web-page', baseUrl: webAppUrl } },
    { id: 'tinybirdCounted0', name: 'tinybirdCounted0', type: 'flowblocksTinybirdApi', data: { token: sb.credentials.tinybird.adminToken, baseUrl: countingUrl } },
    { id: 'loopsSandbox0000', name: 'loopsSandbox0000', type: 'flowblocksLoopsApi', data: { apiKey: sb.credentials.loops.apiKey, baseUrl: sb.urls.loops } },
    { id: 'workflowSandbox0', name: 'workflowSandbox0', type: 'flowblocksWorkflowApi', data: { apiKey: sb.credentials.workflow.apiKey, baseUrl: sb.urls.workflow } },
  ];
  const all = { ...workflows, customCall: customCallWorkflow(`${sb.urls.loops}/api-key`, `${slowUrl}/api-key`) };
  await importIntoN8n(home, credentials, Object.values(all));
  for (const [name, wf] of Object.entries(all)) {
    const ran = await n8n(['execute', `--id=${wf.id}`, '--rawOutput'], home);
    const stored = (await readExecutions(home)).filter((e) => e.workflowId === wf.id);
    if (stored.length !== 1) throw new Error(`${name}: ${stored.length} executions stored; n8n exited ${ran.code}: ${`${ran.stdout}${ran.stderr}`.slice(-2000)}`);
    executions.set(name, stored[0]!);
    cli.set(name, { code: ran.code, output: `${ran.stdout}${ran.stderr}` });
  }
}, 3_600_000);

afterAll(async () => {
  await sb?.close();
  hang?.close();
  webApp.close();
  counting?.close();
  slow?.close();
  // FLOWBLOCKS_KEEP_N8N_HOME=1 keeps n8n's user folder (its database, the package installed) to look into.
  if (home && !process.env.FLOWBLOCKS_KEEP_N8N_HOME) rmSync(home, { recursive: true, force: true });
  else if (home) console.log(`n8n user folder kept: ${home}`);
});

describe(`n8n-nodes-flowblocks in n8n ${N8N_VERSION}`, () => {
  it('runs every block on the success path', () => {
    const run = executions.get('main')!;
    expect(run.status).toBe('success');
    // One item per row, as n8n's own database nodes answer.
    expect(outputOf(run, 'Tinybird query')).toEqual([expect.objectContaining({ json: { one: 1 } })]);
    expect(outputOf(run, 'Loops event')).toEqual([expect.objectContaining({ json: { success: true } })]);
    expect(outputOf(run, 'Workflow execute')?.[0]?.json).toMatchObject({ success: true });
    expect(outputOf(run, 'Workflow execute by URL')?.[0]?.json).toMatchObject({ success: true });
    expect(outputOf(run, 'Tinybird events gzip')?.[0]?.json).toMatchObject({ rows: 2, batch: { items: 1, rows: 2, successful_rows: 1, quarantined_rows: 1 } });
  });

  it("sends a failed item to n8n's error output", () => {
    const run = executions.get('main')!;
    expect(run.data.resultData.runData.Succeeded).toBeUndefined();
    expect(outputOf(run, 'Failed')).toEqual([
      // Routed by the json as n8n 1.x reads it (`error` and `message` only); n8n 2.x routes by the
      // item's `error` and keeps only its message as the json's `error`.
      // The service's text, as n8n's own errors read: no `not_found:` code in front.
      expect.objectContaining({ json: expect.objectContaining({ error: expect.stringMatching(/^(?!not_found)\S/) }) }),
    ]);
  });

  it('continues on fail with the error as the item', () => {
    const run = executions.get('main')!;
    expect(outputOf(run, 'After continue')?.[0]?.json).toMatchObject({ error: expect.stringMatching(/^(?!not_found)\S/) });
  });

  it('fails a query at a base URL answering a web page with one line, not the page', () => {
    const run = executions.get('main')!;
    expect(outputOf(run, 'Web page query')).toEqual([
      expect.objectContaining({ json: expect.objectContaining({ error: "the answer is a web page (text/html), not the service's API: check the base URL" }) }),
    ]);
    expect(JSON.stringify(run.data.resultData.runData['Web page query'])).not.toMatch(/doctype|id=\\?"app/i);
  });

  it('runs the Tool variant through the Tool Executor with its $fromAI value', () => {
    const run = executions.get('main')!;
    const out = outputOf(run, 'Run tool');
    expect(out).toHaveLength(1);
    // find_contact answers a list of the contacts with that e-mail (the sandbox has none: an empty list).
    expect(JSON.stringify(out![0]!.json)).not.toMatch(/error/i);
    expect(run.data.resultData.runData.LoopsTool?.[0]?.error).toBeUndefined();
  });

  it('emits one item per record: a row of a query, each Data Source, cut at the Limit', () => {
    const run = executions.get('records')!;
    expect(run.status).toBe('success');
    expect(outputOf(run, 'Three rows')?.map((item) => item.json)).toEqual([0, 1, 2].map((n) => ({ timestamp: '2026-01-01 00:00:00', event: 'n8n_batch', user_id: `u${n}` })));
    // Run once per input item (three), each run's Data Sources paired with its item.
    const all = outputOf(run, 'All Data Sources')!;
    const names = [...new Set(all.map((item) => item.json.name))];
    expect(names).toEqual(expect.arrayContaining(['events', 'n8n_batch']));
    expect(all).toHaveLength(3 * names.length);
    expect(all.map((item) => item.pairedItem)).toEqual([0, 1, 2].flatMap((i) => names.map(() => ({ item: i }))));
    expect(outputOf(run, 'One Data Source')?.map((item) => [typeof item.json.name, item.pairedItem])).toEqual([0, 1, 2].map((i) => ['string', { item: i }]));
  });

  it('sends every item of Send Events as one NDJSON request, each item with its own output', () => {
    const run = executions.get('records')!;
    const sent = counted.filter((r) => r.method === 'POST' && r.url.startsWith('/v0/events'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(
      [0, 1, 2].map((n) => ({ timestamp: '2026-01-01 00:00:00', event: 'n8n_batch', user_id: `u${n}` })),
    );
    const out = outputOf(run, 'Send rows as events')!;
    expect(out.map((item) => [item.json.rows, item.json.first_row, item.pairedItem])).toEqual([
      [1, 1, { item: 0 }],
      [1, 2, { item: 1 }],
      [1, 3, { item: 2 }],
    ]);
    expect(out[0]!.json.batch).toMatchObject({ items: 3, rows: 3, successful_rows: 3, quarantined_rows: 0 });
  });

  it("stops on fail with n8n's NodeApiError, naming the node", () => {
    const run = executions.get('stop')!;
    expect(run.status).toBe('error');
    expect(run.data.resultData.error).toMatchObject({ name: 'NodeApiError', httpCode: '404', message: expect.stringMatching(/^(?!not_found)\S/), node: { name: 'Missing log' } });
  });

  it("ends at n8n's execution time-out as a cancellation, the request aborted", () => {
    const { code, output } = cli.get('timeout')!;
    // The CLI ends with n8n's own cancellation, not a failure of the node. (`n8n execute` exits
    // on it before its database write lands, so the stored status may still read `running`.)
    expect(code).not.toBe(0);
    expect(output).toContain('TimeoutExecutionCancelledError: The execution was cancelled because it timed out');
    expect(output).not.toMatch(/aborted: the call was aborted|NodeOperationError|NodeApiError/);
    // The request was sent and given up (n8n's abort signal), not answered.
    // Sent by n8n's own HTTP (its user agent), not by undici: the package reaches the network only through n8n.
    expect(hung).toEqual([{ url: '/v0/sql', userAgent: expect.stringMatching(/\bn8n\b/), closedBeforeAnswer: true, afterMs: expect.any(Number) }]);
    // Given up at n8n's 3 s time-out (counted from the execution's start), well before the harness's own 30 s limit.
    expect(hung[0]!.afterMs).toBeLessThan(15_000);
  });

  it("lends the credential to n8n's HTTP Request node (\"Custom API Call\") with its key, and its own time limit", () => {
    const run = executions.get('customCall')!;
    expect(run.status).toBe('success');
    // The sandbox's Loops answered the key `authenticate` put in the header.
    expect(outputOf(run, 'Sandbox call')?.[0]?.json).toMatchObject({ success: true });
    // The test's path, with a whole URL: not the credential test, so not cut at its limit.
    expect(outputOf(run, 'Slow call')?.[0]?.json).toEqual({ success: true, teamName: 'slow' });
    expect(slowAsked).toEqual([{ url: '/api-key', authorization: `Bearer ${sb.credentials.loops.apiKey}` }]);
  });
});
