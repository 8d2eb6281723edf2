/* global console, URLSearchParams */
// The host-compatibility suite (scripts/host-compat.sh): run inside a temporary project that
// installed the packed tarball with the dependency versions a host forces, never from the
// repository. Every check asserts the request sent and the normalized result (undici's
// MockAgent serves the answers; nothing leaves the machine).
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockAgent } from 'undici';
import { closeSharedDispatcher, executeTool, listTools, toolJsonSchema } from 'flowblocks';
import { toSimTools } from 'flowblocks/sim';

const project = dirname(fileURLToPath(import.meta.url));

/** The version of `name` that flowblocks itself loads (a copy nested under it first). */
function versionUsed(name) {
  const flowblocks = join(project, 'node_modules', 'flowblocks');
  for (const dir of [join(flowblocks, 'node_modules', name), join(project, 'node_modules', name)]) {
    if (existsSync(join(dir, 'package.json'))) return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  }
  throw new Error(`${name} is not installed`);
}

const used = { zod: versionUsed('zod'), undici: versionUsed('undici') };
console.log(`versions used: zod ${used.zod}, undici ${used.undici}, node ${process.versions.node}`);
for (const [name, expected] of Object.entries({ zod: process.env.EXPECT_ZOD, undici: process.env.EXPECT_UNDICI })) {
  if (expected) assert.equal(used[name], expected, `${name}: the scenario asked for ${expected}`);
}
const { z } = await import('zod');
console.log(`z.compile: ${typeof z.compile === 'function' ? 'present' : 'absent (schemas parsed as written)'}`);

/** One mocked origin; every request is recorded with its headers and body. */
function service(origin) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(origin);
  const requests = [];
  const on = (method, path, ...replies) => {
    for (const reply of replies) {
      pool.intercept({ method, path: (p) => p.split('?')[0] === path }).reply((opts) => {
        const [pathname, search = ''] = opts.path.split('?');
        const headers = Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
        requests.push({ method: opts.method, path: pathname, query: Object.fromEntries(new URLSearchParams(search)), headers, body: opts.body === undefined ? undefined : String(opts.body) });
        return { statusCode: reply.status, data: JSON.stringify(reply.body), responseOptions: { headers: { 'content-type': 'application/json' } } };
      });
    }
  };
  return { agent, requests, on };
}

const fast = { retry: { baseDelayMs: 1, maxDelayMs: 4 } };
const checks = [];
const check = (name, fn) => checks.push({ name, fn });

const TB = 'https://api.tinybird.co';
const TB_TOKEN = 'p.host-compat-token';
check('tinybird_query: the SQL sent as a form, the rows mapped', async () => {
  const tb = service(TB);
  tb.on('POST', '/v0/sql', { status: 200, body: { meta: [{ name: 'n', type: 'UInt64' }], data: [{ n: 3 }], rows: 1, statistics: { elapsed: 0.001, rows_read: 3, bytes_read: 24 } } });
  const result = await executeTool('tinybird_query', { base_url: TB, token: TB_TOKEN, query: 'SELECT count() AS n FROM events FORMAT JSON' }, { dispatcher: tb.agent, ...fast });
  assert.equal(tb.requests.length, 1);
  assert.deepEqual([tb.requests[0].method, tb.requests[0].path, tb.requests[0].headers.authorization], ['POST', '/v0/sql', `Bearer ${TB_TOKEN}`]);
  assert.deepEqual(Object.fromEntries(new URLSearchParams(tb.requests[0].body)), { q: 'SELECT count() AS n FROM events FORMAT JSON' });
  assert.equal(result.success, true, JSON.stringify(result));
  assert.deepEqual(result.output, { data: [{ n: 3 }], meta: [{ name: 'n', type: 'UInt64' }], rows: 1, statistics: { elapsed: 0.001, rows_read: 3, bytes_read: 24 } });
});
check("tinybird_query: a 400 is bad_request with the service's message, the token masked", async () => {
  const tb = service(TB);
  tb.on('POST', '/v0/sql', { status: 400, body: { error: `[Error] Missing columns: 'nope' (token ${TB_TOKEN})` } });
  const result = await executeTool('tinybird_query', { base_url: TB, token: TB_TOKEN, query: 'SELECT nope FROM events' }, { dispatcher: tb.agent, ...fast });
  assert.equal(result.success, false);
  assert.equal(result.error.code, 'bad_request');
  assert.equal(result.error.status, 400);
  assert.match(result.error.message, /Missing columns: 'nope'/);
  assert.doesNotMatch(JSON.stringify(result), /host-compat-token/);
});
check('tinybird_query: a missing query is invalid_params naming it, nothing sent', async () => {
  const tb = service(TB);
  const result = await executeTool('tinybird_query', { base_url: TB, token: TB_TOKEN }, { dispatcher: tb.agent });
  assert.equal(result.success, false);
  assert.equal(result.error.code, 'invalid_params');
  assert.deepEqual(result.error.issues.map((i) => i.path), ['query']);
  assert.equal(tb.requests.length, 0);
});

const LOOPS = 'https://app.loops.so';
const LOOPS_KEY = 'loops-host-compat-key';
check('loops_find_contact: GET by e-mail, the contact mapped', async () => {
  const lp = service(LOOPS);
  lp.on('GET', '/api/v1/contacts/find', { status: 200, body: [{ id: 'cll6b3i8901a9jx0oyktl2m4u', email: 'a@b.co', firstName: 'Ada', subscribed: true, userGroup: '', source: 'API', mailingLists: {}, optInStatus: null }] });
  const result = await executeTool('loops_find_contact', { apiKey: LOOPS_KEY, email: 'a@b.co' }, { dispatcher: lp.agent, ...fast });
  assert.deepEqual([lp.requests[0].method, lp.requests[0].path, lp.requests[0].query, lp.requests[0].headers.authorization], ['GET', '/api/v1/contacts/find', { email: 'a@b.co' }, `Bearer ${LOOPS_KEY}`]);
  assert.equal(result.success, true, JSON.stringify(result));
  assert.equal(result.output.contacts.length, 1);
  assert.deepEqual({ id: result.output.contacts[0].id, email: result.output.contacts[0].email, firstName: result.output.contacts[0].firstName, lastName: result.output.contacts[0].lastName }, { id: 'cll6b3i8901a9jx0oyktl2m4u', email: 'a@b.co', firstName: 'Ada', lastName: null });
});
check("loops_send_event: a 400 is bad_request with Loops' message, the Idempotency-Key sent", async () => {
  const lp = service(LOOPS);
  lp.on('POST', '/api/v1/events/send', { status: 400, body: { success: false, message: 'eventName is required.' } });
  const result = await executeTool('loops_send_event', { apiKey: LOOPS_KEY, email: 'a@b.co', eventName: 'signup' }, { dispatcher: lp.agent, idempotencyKey: 'hc-key-1', ...fast });
  assert.equal(lp.requests.length, 1);
  assert.equal(lp.requests[0].headers['idempotency-key'], 'hc-key-1');
  assert.deepEqual(JSON.parse(lp.requests[0].body), { email: 'a@b.co', eventName: 'signup' });
  assert.equal(result.success, false);
  assert.deepEqual([result.error.code, result.error.status, result.error.message], ['bad_request', 400, 'eventName is required.']);
});

const WF = 'https://workflows.example.com';
const WF_KEY = 'wf-host-compat-key';
check('workflow_execute: the spec body sent, output and limits mapped', async () => {
  const wf = service(WF);
  wf.on('POST', '/api/workflows/wf_1/execute', { status: 200, body: { success: true, output: { synced: 2 } } });
  const result = await executeTool('workflow_execute', { base_url: WF, apiKey: WF_KEY, workflowId: 'wf_1', inputs: { since: '2026-11-01' } }, { dispatcher: wf.agent, ...fast });
  assert.deepEqual([wf.requests[0].method, wf.requests[0].headers['x-api-key'], JSON.parse(wf.requests[0].body)], ['POST', WF_KEY, { inputs: { since: '2026-11-01' } }]);
  // As a workflow engine passes it on: JSON (the output's absent fields are undefined).
  assert.deepEqual(result.success && JSON.parse(JSON.stringify(result.output)), { success: true, output: { synced: 2 } });
});
check('workflow_get_log: a 404 is not_found', async () => {
  const wf = service(WF);
  wf.on('GET', '/api/v1/logs/log_missing', { status: 404, body: { error: 'Log not found' } });
  const result = await executeTool('workflow_get_log', { base_url: WF, apiKey: WF_KEY, id: 'log_missing' }, { dispatcher: wf.agent, ...fast });
  assert.equal(wf.requests[0].path, '/api/v1/logs/log_missing');
  assert.deepEqual([result.success, result.error?.code, result.error?.message], [false, 'not_found', 'Log not found']);
});
check('workflow_execute (flat): a 502, then 409 EXECUTION_ID_CONFLICT on the retry with the same id: accepted', async () => {
  const wf = service(WF);
  wf.on('POST', '/api/workflows/wf_1/execute', { status: 502, body: { error: 'Bad Gateway' } }, { status: 409, body: { error: 'Execution ID has already been used', code: 'EXECUTION_ID_CONFLICT', executionId: 'hc-exec-1' } });
  const result = await executeTool('workflow_execute', { base_url: WF, apiKey: WF_KEY, workflowId: 'wf_1', inputStyle: 'flat' }, { dispatcher: wf.agent, idempotencyKey: 'hc-exec-1', ...fast });
  assert.deepEqual(wf.requests.map((r) => r.headers['x-execution-id']), ['hc-exec-1', 'hc-exec-1']);
  assert.deepEqual(result.success && result.output, { success: true, status: 'accepted', executionId: 'hc-exec-1' });
});
check("the Sim adapter's tool call (directExecution) runs through the harness", async () => {
  const tb = service(TB);
  tb.on('POST', '/v0/sql', { status: 200, body: { meta: [{ name: 'n', type: 'UInt64' }], data: [{ n: 1 }], rows: 1, statistics: { elapsed: 0, rows_read: 1, bytes_read: 8 } } });
  const tools = toSimTools({ execute: { dispatcher: tb.agent, ...fast } });
  const response = await tools.flowblocks_tinybird_query.directExecution({ base_url: TB, token: TB_TOKEN, query: 'SELECT 1 AS n FORMAT JSON' });
  assert.equal(tb.requests.length, 1);
  assert.equal(response.success, true, JSON.stringify(response));
  assert.deepEqual(response.output.data, [{ n: 1 }]);
  const refused = await tools.flowblocks_tinybird_query.directExecution({ base_url: TB, token: TB_TOKEN });
  assert.equal(refused.success, false);
  assert.match(refused.error, /query/);
});
/**
 * What a JSON Schema says, without what each zod version writes its own way: zod's own
 * `pattern` and `format` for e-mails and ISO times (its regexes differ between versions), and
 * a union of plain types as `anyOf` (4.3) or a `type` array (4.6).
 */
function essentials(node) {
  if (Array.isArray(node)) return node.map(essentials);
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'pattern' || key === 'format') continue;
    out[key] = essentials(value);
  }
  const plainTypes = Array.isArray(out.anyOf) && out.anyOf.every((branch) => Object.keys(branch).length === 1 && typeof branch.type === 'string');
  if (plainTypes) {
    out.type = out.anyOf.map((branch) => branch.type);
    delete out.anyOf;
  }
  if (Array.isArray(out.type)) out.type = [...out.type].sort();
  return out;
}

check('toolJsonSchema: every tool, both audiences, says what it says with the zod the package is developed with', async () => {
  const expected = JSON.parse(readFileSync(join(project, 'expected-schemas.json'), 'utf8'));
  const ids = listTools().map((tool) => tool.id);
  assert.deepEqual(ids, Object.keys(expected));
  for (const id of ids) {
    for (const audience of ['full', 'llm']) {
      assert.deepEqual(essentials(toolJsonSchema(id, { audience })), essentials(expected[id][audience]), `${id} (${audience})`);
    }
  }
  const query = toolJsonSchema('tinybird_query');
  assert.deepEqual([query.type, query.required, query.properties.query.type], ['object', ['base_url', 'token', 'query'], 'string']);
});

check("a real HTTP exchange through undici's own Agent (a loopback server): a cut connection retried, then the answer", async () => {
  const seen = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, key: req.headers['x-api-key'] });
      // The first request's connection is cut without an answer; a read is safe to retry.
      if (seen.length === 1) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { id: 'log_1', workflowId: 'wf_1', executionId: 'ex_1', level: 'info', trigger: 'api', startedAt: '2026-11-01T10:00:00.000Z', endedAt: '2026-11-01T10:00:01.000Z', totalDurationMs: 1000, cost: { total: 0 }, files: null } }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${server.address().port}`;
    const result = await executeTool('workflow_get_log', { base_url: base, apiKey: WF_KEY, id: 'log_1' }, fast);
    assert.deepEqual(seen, [
      { method: 'GET', url: '/api/v1/logs/log_1', key: WF_KEY },
      { method: 'GET', url: '/api/v1/logs/log_1', key: WF_KEY },
    ]);
    assert.equal(result.success, true, JSON.stringify(result));
    assert.deepEqual([result.output.data.id, result.output.data.executionId, result.meta.attempts], ['log_1', 'ex_1', 2]);
  } finally {
    server.close();
    await closeSharedDispatcher();
  }
});

let failed = 0;
for (const { name, fn } of checks) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(error?.stack ?? error).split('\n').slice(0, 6).join('\n     ')}`);
  }
}
console.log(`${checks.length - failed} of ${checks.length} checks passed (zod ${used.zod}, undici ${used.undici})`);
process.exit(failed ? 1 : 0);
