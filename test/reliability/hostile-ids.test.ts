/**
 * Hostile ids. Ids and names from outside (workflow, execution, log and task ids, argument
 * and property names, idempotency keys) are data: the keys of Object.prototype reach no
 * prototype and leave Object.prototype as it was, and the dot segments `.` and `..` (and an
 * empty id) never reach a URL path, where a server would resolve them to another route.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolExecutor } from '../../src/hosts/agents/index.js';
import { main } from '../../src/satellites/cli/main.js';
import { runTool } from '../../src/harness/run/execute.js';
import { pathSegment } from '../../src/harness/define/path-segment.js';
import { getTool } from '../../src/index.js';
import { RuleEngine, initialRulesState } from '../../src/satellites/notifications/rule-engine.js';
import { initialWatermark, Watermark } from '../../src/satellites/notifications/watermark.js';
import { startSandbox } from '../../src/satellites/sandbox/index.js';
import { fakeLog } from '../notifications/logs-api.js';
import { call, eventually, webhookReceiver } from '../sandbox/helpers.js';
import { hostileTally } from './tally.js';
import { TOOL_CASES, withAuth } from './tool-cases.js';
import { mustCover } from '../helpers/service-tables.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const family = hostileTally('ids');
afterAll(() => family.save());

/** Every own key of Object.prototype a workflow id can spell, and `prototype`. */
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const DOTTED = ['.', '..', ''];

/** Object.prototype as it must stay: no key added, nothing readable through `{}`. */
function prototypeUntouched(): boolean {
  return Object.keys(Object.prototype).length === 0 && (({}) as Record<string, unknown>).polluted === undefined && !('runs' in {}) && !('consecutiveFailures' in {});
}

afterEach(() => {
  // A case that pollutes must not hide behind the next one.
  expect(prototypeUntouched()).toBe(true);
});

const ORIGIN = 'https://ids.example.test';
const SECRETS = { token: 'p.ids-token', apiKey: 'ids-api-key' };

/** A MockAgent that answers every request with `reply` and records the paths it was asked for. */
function recordingAgent(reply: { status: number; body?: unknown }) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const paths: string[] = [];
  agent
    .get(ORIGIN)
    .intercept({ method: () => true, path: () => true })
    .reply((opts) => {
      paths.push(opts.path.split('?')[0]!);
      return { statusCode: reply.status, data: reply.body === undefined ? '' : JSON.stringify(reply.body), responseOptions: { headers: { 'content-type': 'application/json' } } };
    })
    .persist();
  return { agent, paths };
}

/** Where each path param lands, `{id}` for the id (under the base URLs `withAuth` gives). */
const PATH_PARAMS: Record<string, { param: string; path: string }> = {
  tinybird_query_pipe: { param: 'pipe', path: '/tinybird/v0/pipes/{id}.json' },
  tinybird_truncate_datasource: { param: 'datasource', path: '/tinybird/v0/datasources/{id}/truncate' },
  tinybird_delete_datasource_rows: { param: 'datasource', path: '/tinybird/v0/datasources/{id}/delete' },
  tinybird_get_job: { param: 'job_id', path: '/tinybird/v0/jobs/{id}' },
  tinybird_get_datasource: { param: 'datasource', path: '/tinybird/v0/datasources/{id}' },
  tinybird_get_pipe: { param: 'pipe', path: '/tinybird/v0/pipes/{id}' },
  tinybird_cancel_job: { param: 'job_id', path: '/tinybird/v0/jobs/{id}/cancel' },
  loops_get_transactional_email: { param: 'transactionalId', path: '/api/v1/transactional-emails/{id}' },
  loops_get_event_pattern: { param: 'eventName', path: '/api/v1/event-patterns/by-name/{id}' },
  workflow_execute: { param: 'workflowId', path: '/workflow/api/workflows/{id}/execute' },
  workflow_get_job: { param: 'taskId', path: '/workflow/api/jobs/{id}' },
  workflow_get_log: { param: 'id', path: '/workflow/api/v1/logs/{id}' },
  workflow_get_execution: { param: 'executionId', path: '/workflow/api/v1/logs/executions/{id}' },
};

describe('ids in URL paths', () => {
  it('finds every tool that puts a param in its path, so a new one is swept too', () => {
    const found: string[] = [];
    for (const c of TOOL_CASES) {
      const tool = getTool(c.id)!;
      for (const [name, value] of Object.entries(c.params)) {
        if (typeof value !== 'string') continue;
        const marker = `marker${name.replace(/\W/g, '')}`;
        const params = tool.params.safeParse(withAuth({ ...c, params: { ...c.params, [name]: marker } }, ORIGIN, SECRETS));
        if (!params.success) continue;
        const url = new URL(tool.request(params.data, {}).url);
        if (url.pathname.includes(marker)) found.push(`${c.id}.${name}`);
      }
    }
    expect(found.sort()).toEqual(Object.entries(PATH_PARAMS).map(([id, { param }]) => `${id}.${param}`).sort());
    expect(TOOL_CASES.map((c) => c.id).sort()).toEqual(mustCover(TOOL_CASES.map((c) => c.id)));
    family.note(`${found.length} tools put an id in a URL path (Tinybird 7, workflow platform 4, Loops 2)`);
  });

  for (const [id, { param, path }] of Object.entries(PATH_PARAMS)) {
    const c = TOOL_CASES.find((tc) => tc.id === id)!;
    const callWith = async (value: string) => {
      const { agent, paths } = recordingAgent(c.reply);
      const result = await runTool(getTool(id)!, withAuth({ ...c, params: { ...c.params, [param]: value } }, ORIGIN, SECRETS), {
        dispatcher: agent,
        retry: false,
        endpoints: { loops: `${ORIGIN}/api/v1` },
      });
      await agent.close();
      return { result, paths };
    };

    it.each(DOTTED)(`${id}: ${param} %j is invalid_params naming the field, and nothing is sent`, async (value) => {
      const { result, paths } = await callWith(value);
      const ok = !result.success && result.error.code === 'invalid_params' && result.error.issues?.some((issue) => issue.path === param) === true && paths.length === 0;
      expect(family.record(ok)).toBe(true);
    });

    it(`${id}: a normal id and an encoded-looking one go out as exactly one segment`, async () => {
      const normal = await callWith('abc_123');
      expect(normal.result.success).toBe(true);
      expect(normal.paths).toEqual([path.replace('{id}', 'abc_123')]);
      // `%2e%2e` is an id of six characters: sent with its % encoded, never decoded into `..`.
      const encoded = await callWith('%2e%2e');
      const ok = encoded.result.success
        ? encoded.paths.length === 1 && encoded.paths[0] === path.replace('{id}', '%252e%252e')
        : encoded.result.error.code === 'invalid_params' && encoded.paths.length === 0; // a Data Source name has no %
      expect(family.record(ok)).toBe(true);
    });
  }

  it('pathSegment refuses for a tool whose schema forgot pathIdParam, before sending', async () => {
    const forgetful = { ...getTool('workflow_get_execution')!, params: z.object({ base_url: z.string(), apiKey: z.string(), executionId: z.string() }) };
    for (const value of DOTTED) {
      const { agent, paths } = recordingAgent({ status: 200, body: {} });
      const result = await runTool(forgetful, { base_url: `${ORIGIN}/workflow`, apiKey: 'k', executionId: value }, { dispatcher: agent, retry: false });
      await agent.close();
      expect(family.record(!result.success && result.error.code === 'invalid_params' && paths.length === 0)).toBe(true);
    }
    expect(pathSegment('a/b?c#d')).toBe('a%2Fb%3Fc%23d');
  });
});

describe('prototype keys as ids', () => {
  const failed = (workflowId: string, n: number) => ({
    id: `log_${workflowId}_${n}`,
    workflowId,
    executionId: `exec_${workflowId}_${n}`,
    level: 'error',
    trigger: 'api',
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
    endedAt: new Date(Date.UTC(2026, 0, 1, 0, n, 1)).toISOString(),
    totalDurationMs: 1000,
  });

  it.each(PROTO_KEYS)('alert rules: workflow %j fires, survives a save and reload, and pollutes nothing', (id) => {
    const rules = [{ type: 'consecutive_failures' as const, count: 2 }];
    const engine = new RuleEngine(rules, initialRulesState(0));
    const now = Date.UTC(2026, 0, 1, 1);
    const first = engine.completed(failed(id, 1), now);
    const second = engine.completed(failed(id, 2), now);
    // Saved as JSON and read back, as `flowblocks monitor` does between runs.
    const reloaded = new RuleEngine(rules, JSON.parse(JSON.stringify(engine.state)));
    const reloadedFailures = Object.hasOwn(reloaded.state.workflows, id) ? reloaded.state.workflows[id]?.consecutiveFailures : undefined;
    const third = reloaded.completed(failed(id, 3), now + 1);
    const ok =
      first.length === 0 &&
      second.map((f) => f.rule).join() === 'consecutive_failures' &&
      reloadedFailures === 2 &&
      reloaded.knownWorkflows().join() === id &&
      third.length === 0 && // the cool-down was saved with it
      reloaded.state.workflows[id]?.consecutiveFailures === 3 &&
      prototypeUntouched();
    expect(family.record(ok)).toBe(true);
  });

  it.each(PROTO_KEYS)('log monitor watermark: log id %j is evaluated once, across a save and reload', (id) => {
    const mark = new Watermark(initialWatermark(0), 60_000);
    const fresh = mark.isNew(id, 10);
    mark.markRunning(id, 10);
    mark.markSeen(id, 10);
    const reloaded = new Watermark(JSON.parse(JSON.stringify(mark.state)), 60_000);
    reloaded.prune(20);
    const ok = fresh && !mark.isNew(id, 10) && !reloaded.isNew(id, 10) && Object.keys(reloaded.state.running).length === 0 && prototypeUntouched();
    expect(family.record(ok)).toBe(true);
  });

  it('agent executor: arguments named after prototype keys give a result, never a throw', async () => {
    const { agent } = recordingAgent({ status: 200, body: {} });
    const executor = createToolExecutor({
      settings: { workflow: { base_url: `${ORIGIN}/workflow`, apiKey: 'k' }, tinybird: { base_url: `${ORIGIN}/tinybird`, token: 't0k' }, loops: { apiKey: 'l00ps', base_url: `${ORIGIN}/loops` } },
      execute: { dispatcher: agent, retry: false },
    });
    // Every tool with all the keys at once; one tool (which sends nothing without its id) with each alone.
    const argSets = [PROTO_KEYS, ...PROTO_KEYS.map((key) => [key])];
    let calls = 0;
    for (const tool of executor.tools) {
      for (const keys of tool.id === 'workflow_get_execution' ? argSets : argSets.slice(0, 1)) {
        for (const strict of [false, true]) {
          calls++;
          const args = JSON.parse(`{${keys.map((key) => `${JSON.stringify(key)}: {"polluted": 1}`).join(',')}}`) as unknown;
          const result = await executor.execute(tool.id, args, { strict }).catch((error: unknown) => ({ thrown: String(error) }));
          // A result, whatever it says (most calls lack a required param; list calls get `{}` back).
          const ok = 'ok' in result && (result.ok || typeof result.error.code === 'string') && prototypeUntouched();
          expect(family.record(ok), `${tool.id} ${keys.join()} strict=${strict}: ${JSON.stringify(result)}`).toBe(true);
        }
      }
    }
    await agent.close();
    family.note(`${calls} agent calls with prototype keys as argument names, strict and not, over ${executor.tools.length} tools`);
  });

  it('sandbox: workflows, inputs, log filters and Loops keys named after prototype keys answer normally', async () => {
    const hook = await webhookReceiver();
    const workflows = PROTO_KEYS.map((id) => ({
      id,
      name: `Workflow ${id}`,
      workspaceId: 'ws_sandbox',
      deployed: true,
      inputs: { [id]: { type: 'string' } },
      // An operation the block does not have: every run fails, so the rule fires.
      blocks: { step: { type: 'loops', operation: 'no_such_operation', params: {} } },
    }));
    const sb = await startSandbox({
      loops: { requestsPerSecond: 1000 },
      workflow: {
        workflows,
        notifications: { ws_sandbox: { channels: [{ type: 'webhook', url: hook.url }], allWorkflows: true, alertRules: [{ type: 'consecutive_failures', count: 1 }] } },
      },
    });
    try {
      const headers = { 'content-type': 'application/json', 'x-api-key': sb.credentials.workflow.apiKey };
      for (const id of PROTO_KEYS) {
        // The declared input named `constructor` (…) is absent from the body, and is not Object.
        const run = await call(`${sb.urls.workflow}/api/workflows/${id}/execute`, { method: 'POST', headers, body: '{"inputs":{}}' });
        expect(family.record(run.status === 200 && run.json.success === false && prototypeUntouched()), `${id}: ${run.text}`).toBe(true);
      }
      const alerted = await eventually(async () => {
        const ids = new Set(hook.received.map((d) => (JSON.parse(d.body) as { data: { workflowId: string } }).data.workflowId));
        return PROTO_KEYS.every((id) => ids.has(id)) ? ids : undefined;
      });
      expect(family.record(alerted.size === PROTO_KEYS.length)).toBe(true);
      // A strict parse still works after the alerts: nothing was added to Object.prototype.
      const lists = await call(`${sb.urls.workflow}/api/workflows/wf_free_lists/execute`, { method: 'POST', headers, body: '{}' });
      expect(lists.status).not.toBe(400);
      for (const model of PROTO_KEYS) {
        const logs = await call(`${sb.urls.workflow}/api/v1/logs?workspaceId=ws_sandbox&model=${encodeURIComponent(model)}`, { headers });
        expect(family.record(logs.status === 200 && Array.isArray(logs.json.data) && logs.json.data.length === 0), `model=${model}: ${logs.text}`).toBe(true);
      }

      const loops = (path: string, init: { method: string; body?: unknown; headers?: Record<string, string> }) =>
        call(`${sb.urls.loops}${path}`, { method: init.method, token: sb.credentials.loops.apiKey, headers: { 'content-type': 'application/json', ...init.headers }, body: JSON.stringify(init.body) });
      for (const key of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
        // camelCase, so Loops takes them as custom property names; a body without one sets nothing.
        const created = await loops('/contacts/properties', { method: 'POST', body: { name: key, type: 'number' } });
        const updated = await loops('/contacts/update', { method: 'PUT', body: { email: `${key}@example.com` } });
        expect(family.record(created.status === 200 && updated.status === 200), `${key}: ${created.text} ${updated.text}`).toBe(true);
      }
      for (const key of PROTO_KEYS) {
        const send = () => loops('/events/send', { method: 'POST', headers: { 'idempotency-key': key }, body: { email: 'a@example.com', eventName: 'signup' } });
        const [first, again] = [await send(), await send()];
        expect(family.record(first.status === 200 && again.status === 409 && prototypeUntouched()), `${key}: ${first.text} ${again.text}`).toBe(true);
      }
    } finally {
      await sb.close();
      await hook.close();
    }
    family.note(`sandbox: ${PROTO_KEYS.length} workflow ids, declared inputs, log model filters and Loops idempotency keys; 4 Loops property names`);
  });

  it('flowblocks monitor --once alerts on workflows `constructor` and `__proto__`, run after run', async () => {
    const logs: ReturnType<typeof fakeLog>[] = [];
    const hooks: string[] = [];
    // The logs API and the webhook receiver on one port: `/api/v1/logs` lists, any other path receives.
    const server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/api/v1/logs') {
        const startDate = url.searchParams.get('startDate') ?? '';
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: logs.filter((l) => l.startedAt >= startDate) }));
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      hooks.push(Buffer.concat(chunks).toString('utf8'));
      res.end('ok');
    });
    const { origin: base } = await listenOnLoopback(server);
    const dir = mkdtempSync(join(tmpdir(), 'flowblocks-hostile-ids-'));
    const start = Date.now() - 600_000;
    const config = join(dir, 'monitor.json');
    writeFileSync(
      config,
      JSON.stringify({
        baseUrl: base,
        apiKey: 'sk-ids',
        workspaceId: 'ws-1',
        startFrom: new Date(start).toISOString(),
        notifications: { channels: [{ type: 'webhook', url: `${base}/hook` }], allWorkflows: true, alertRules: [{ type: 'consecutive_failures', count: 1 }] },
      }),
    );
    const runOnce = async () => {
      let out = '';
      const code = await main(['monitor', '--config', config, '--once'], { stdout: (s) => (out += s), stderr: (s) => (out += s), stdin: async () => '' });
      return { code, out };
    };
    try {
      const rounds = [PROTO_KEYS.slice(0, 2), PROTO_KEYS.slice(2)];
      let n = 0;
      for (const ids of rounds) {
        const before = hooks.length;
        for (const id of ids) logs.push(fakeLog(++n, start + n * 1_000, { workflowId: id, executionId: `exec_${n}`, level: 'error' }));
        // The first round's workflows fail again: their cool-down, saved and reloaded, holds.
        if (n > 2) for (const id of rounds[0]!) logs.push(fakeLog(++n, start + n * 1_000, { workflowId: id, executionId: `exec_${n}`, level: 'error' }));
        const { code, out } = await runOnce();
        const sent = hooks.slice(before).map((body) => (JSON.parse(body) as { data: { workflowId: string } }).data.workflowId);
        const ok = code === 0 && [...sent].sort().join() === [...ids].sort().join() && prototypeUntouched();
        expect(family.record(ok), `${code} ${out} sent ${sent.join()}`).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => server.close(resolve));
    }
    family.note(`flowblocks monitor --once: 2 runs, ${PROTO_KEYS.length} prototype keys as workflow ids, state reloaded in between`);
  });
});
