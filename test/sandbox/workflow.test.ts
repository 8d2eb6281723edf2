import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { call, eventually, webhookReceiver } from './helpers.js';

let sb: Sandbox;
let base: string;
let key: string;
let hook: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  hook = await webhookReceiver();
  sb = await startSandbox({
    workflow: {
      jobStepMs: 60,
      maxExecutionIds: 3,
      notifications: {
        ws_sandbox: { channels: [{ type: 'webhook', url: hook.url, secret: 'whsec-test' }], workflowIds: ['wf_daily_report'], includeFinalOutput: true },
      },
    },
  });
  base = sb.urls.workflow;
  key = sb.credentials.workflow.apiKey;
});
afterAll(async () => {
  await sb?.close();
  await hook?.close();
});

const api = (path: string, init: { method?: string; body?: unknown; key?: string | null; headers?: Record<string, string> } = {}) =>
  call(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      ...(init.key === null ? {} : { 'x-api-key': init.key ?? key }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
const execute = (id: string, body: unknown, extra: { key?: string; headers?: Record<string, string> } = {}) =>
  api(`/api/workflows/${id}/execute`, { method: 'POST', body, ...extra });
const signup = (n: number) => ({ inputs: { email: `user${n}@example.com`, firstName: `User${n}`, userId: `u${n}` } });

describe('execute', () => {
  it('runs a deployed workflow synchronously through the registry blocks and returns output and limits', async () => {
    const res = await execute('wf_signup_pipeline', signup(1));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      executionId: expect.any(String),
      output: { ingested: 1, signupsSoFar: 1, contactId: expect.stringMatching(/^c/), welcomeSent: true },
      limits: {
        workflowExecutionRateLimit: {
          sync: { requestsPerMinute: 75, maxBurst: 150, remaining: expect.any(Number), resetAt: expect.any(String) },
          async: { requestsPerMinute: 500, maxBurst: 1000 },
        },
        usage: { plan: 'team', limit: 500, isExceeded: false, currentPeriodCost: expect.any(Number) },
      },
    });
    const outbox = (await call(sb.admin.loopsOutbox)).json as unknown as { emails: { to: string; subject: string }[] };
    expect(outbox.emails).toContainEqual(expect.objectContaining({ to: 'user1@example.com', subject: 'Welcome to flowblocks, User1' }));
  });

  it('answers 401, 404 (other workspace), 403 (not deployed) and 400 with details', async () => {
    expect((await execute('wf_signup_pipeline', signup(2), { key: 'nope' })).status).toBe(401);
    const noKey = await api('/api/workflows/wf_signup_pipeline/execute', { method: 'POST', body: {}, key: null });
    expect([noKey.status, noKey.json.error]).toEqual([401, 'Missing or invalid API key']);
    expect((await execute('wf_free_lists', {})).status).toBe(404);
    expect((await execute('wf_missing', {})).status).toBe(404);
    expect((await execute('wf_draft', {})).status).toBe(403);
    const bad = await execute('wf_signup_pipeline', { inputs: { email: 'x@example.com', firstName: 3 }, async: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      error: 'Invalid request parameters',
      details: [
        { path: 'async', message: 'must be a boolean' },
        { path: 'inputs.firstName', message: 'must be a string' },
        { path: 'inputs.userId', message: 'is required' },
      ],
    });
    expect((await execute('wf_signup_pipeline', '{not json')).status).toBe(400);
  });

  it('reports a failing block as success: false with the error, and logs it at level error', async () => {
    const res = await execute('wf_broken_query', {});
    expect(res.json).toMatchObject({ success: false, error: expect.stringMatching(/^broken: .*no_such_column/) });
  });
});

describe('async jobs', () => {
  it('moves a job through queued and processing to completed, with output only when completed', async () => {
    const accepted = await execute('wf_daily_report', { inputs: { email: 'ops@example.com' }, async: true });
    expect(accepted.status).toBe(202);
    expect(accepted.json).toMatchObject({ success: true, status: 'queued', taskId: expect.stringMatching(/^task_/) });
    const seen: string[] = [];
    const done = await eventually(async () => {
      const job = await api(`/api/jobs/${accepted.json.taskId}`);
      if (seen.at(-1) !== job.json.status) seen.push(job.json.status as string);
      if (job.json.status === 'queued' || job.json.status === 'processing') expect(job.json.output).toBeUndefined();
      return job.json.status === 'completed' ? job.json : undefined;
    });
    expect(seen[0]).toBe('queued');
    expect(done).toMatchObject({ taskId: accepted.json.taskId, status: 'completed', output: { sent: true } });
  });

  it('ends a failing run as failed with an error and no output; another workspace gets 404', async () => {
    const accepted = await execute('wf_broken_query', {}, { headers: { 'x-execution-mode': 'async' } });
    expect(accepted.status).toBe(202);
    const failed = await eventually(async () => {
      const job = await api(`/api/jobs/${accepted.json.taskId}`);
      return job.json.status === 'failed' ? job.json : undefined;
    });
    expect(failed.output).toBeUndefined();
    expect(failed.error).toMatch(/no_such_column/);
    expect((await api(`/api/jobs/${accepted.json.taskId}`, { key: sb.credentials.workflow.freeApiKey })).status).toBe(404);
  });
});

describe('logs', () => {
  const logs = async (query: string) => api(`/api/v1/logs?workspaceId=ws_sandbox&${query}`);

  it('filters by workflow, folder, trigger, level, execution, duration, cost and time', async () => {
    await call(`${sb.admin.workflow}/workflows/wf_daily_report/run?trigger=schedule`, { method: 'POST', body: JSON.stringify({ inputs: { email: 'cron@example.com' } }), headers: { 'content-type': 'application/json' } });
    const all = (await logs('limit=1000&order=asc')).json.data as { id: string; executionId: string; trigger: string; level: string; workflowId: string; startedAt: string; totalDurationMs: number; cost: { total: number } }[];
    expect(all.length).toBeGreaterThanOrEqual(5);
    const ids = (q: string) => logs(q).then((r) => (r.json.data as { id: string }[]).map((e) => e.id).sort());
    const expectIds = (pick: (e: (typeof all)[number]) => boolean) => all.filter(pick).map((e) => e.id).sort();
    expect(await ids('workflowIds=wf_daily_report,wf_broken_query')).toEqual(expectIds((e) => e.workflowId !== 'wf_signup_pipeline'));
    expect(await ids('folderIds=folder_growth')).toEqual(expectIds((e) => e.workflowId === 'wf_signup_pipeline'));
    expect(await ids('triggers=schedule')).toEqual(expectIds((e) => e.trigger === 'schedule'));
    expect(await ids('level=error')).toEqual(expectIds((e) => e.level === 'error'));
    expect(await ids(`executionId=${all[0]!.executionId}`)).toEqual([all[0]!.id]);
    expect(await ids('minCost=0.0025')).toEqual(expectIds((e) => e.cost.total >= 0.0025));
    expect(await ids('maxCost=0.0015')).toEqual(expectIds((e) => e.cost.total <= 0.0015));
    const slowest = Math.max(...all.map((e) => e.totalDurationMs));
    expect(await ids(`minDurationMs=${slowest}`)).toEqual(expectIds((e) => e.totalDurationMs >= slowest));
    expect(await ids(`startDate=${encodeURIComponent(all[1]!.startedAt)}&endDate=${encodeURIComponent(all[2]!.startedAt)}`)).toEqual(
      expectIds((e) => e.startedAt >= all[1]!.startedAt && e.startedAt <= all[2]!.startedAt),
    );
    expect(await ids('model=gpt-4o')).toEqual([]);
  });

  it('walks every page once with opaque URL-safe cursors, and refuses a bad cursor with details', async () => {
    const first = await logs('limit=1000');
    const everything = (first.json.data as { id: string }[]).map((e) => e.id);
    expect(first.json.nextCursor).toBeUndefined();
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await logs(`limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...(page.json.data as { id: string }[]).map((e) => e.id));
      cursor = page.json.nextCursor as string | undefined;
      if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    } while (cursor);
    expect(walked).toEqual(everything);
    const bad = await logs('cursor=not-a-cursor');
    expect([bad.status, bad.json.error, bad.json.details]).toEqual([400, 'Invalid request parameters', [{ path: 'cursor', message: 'Invalid cursor' }]]);
    const descCursor = (await logs('limit=1')).json.nextCursor as string;
    expect((await logs(`order=asc&cursor=${descCursor}`)).status).toBe(400);
    const invalid = await logs('limit=0&level=warn&details=some');
    expect((invalid.json.details as { path: string }[]).map((d) => d.path)).toEqual(['level', 'limit', 'details']);
  });

  it('adds the workflow with details=full, trace spans and final output on request, and limits always', async () => {
    const basic = (await logs('workflowIds=wf_signup_pipeline&limit=1')).json;
    expect(Object.keys((basic.data as object[])[0]!)).toEqual(['id', 'workflowId', 'executionId', 'level', 'trigger', 'startedAt', 'endedAt', 'totalDurationMs', 'cost', 'files']);
    expect(basic.limits).toMatchObject({ usage: { plan: 'team' } });
    const full = ((await logs('workflowIds=wf_signup_pipeline&limit=1&details=full&includeTraceSpans=true&includeFinalOutput=true')).json.data as Record<string, unknown>[])[0]!;
    expect(full.workflow).toEqual({ id: 'wf_signup_pipeline', name: 'Signup pipeline', description: expect.any(String) });
    expect((full.traceSpans as { blockId: string }[]).map((s) => s.blockId)).toEqual(['record_signup', 'count_signups', 'upsert_contact', 'welcome_email']);
    expect(full.finalOutput).toMatchObject({ welcomeSent: true });
  });

  it('serves the log detail with limits inside data, and the execution with its workflow state', async () => {
    const [entry] = (await logs('workflowIds=wf_signup_pipeline&limit=1')).json.data as { id: string; executionId: string }[];
    const detail = await api(`/api/v1/logs/${entry!.id}`);
    expect(detail.json.data).toMatchObject({
      id: entry!.id,
      workflow: { id: 'wf_signup_pipeline', name: 'Signup pipeline' },
      executionData: { traceSpans: expect.any(Array), finalOutput: { ingested: 1 } },
      cost: { total: 0.003, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} },
      limits: { workflowExecutionRateLimit: expect.any(Object), usage: expect.any(Object) },
    });
    const span = ((detail.json.data as { executionData: { traceSpans: Record<string, unknown>[] } }).executionData.traceSpans)[0]!;
    expect(span).toMatchObject({ blockId: 'record_signup', type: 'tinybird', operation: 'events', toolId: 'tinybird_events', status: 'success', output: { successful_rows: 1 } });
    const execution = await api(`/api/v1/logs/executions/${entry!.executionId}`);
    expect(execution.json).toMatchObject({
      executionId: entry!.executionId,
      workflowId: 'wf_signup_pipeline',
      workflowState: { blocks: { record_signup: { type: 'tinybird', operation: 'events' } }, edges: expect.any(Array), loops: {}, parallels: {} },
      executionMetadata: { trigger: 'api', startedAt: expect.any(String), totalDurationMs: expect.any(Number), cost: { total: 0.003 } },
    });
    // The snapshot keeps references, never the resolved credentials.
    expect(execution.text).not.toContain(sb.credentials.tinybird.adminToken);
    expect((await api(`/api/v1/logs/${entry!.id}`, { key: sb.credentials.workflow.freeApiKey })).status).toBe(404);
    expect((await api('/api/v1/logs?workspaceId=ws_sandbox', { key: sb.credentials.workflow.freeApiKey })).status).toBe(404);
  });
});

describe('rate limits', () => {
  it('spends the free plan logs bucket (10/min, burst 20) and answers 429 with Retry-After and the headers', async () => {
    const free = sb.credentials.workflow.freeApiKey;
    const replies = [];
    // Earlier tests spent a few of the 20; the bucket runs dry within 21 calls either way.
    for (let i = 0; i < 21; i++) {
      const reply = await api('/api/v1/logs?workspaceId=ws_free', { key: free });
      replies.push(reply);
      if (reply.status === 429) break;
    }
    const remaining = replies.map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(replies[0]!.headers.get('x-ratelimit-limit')).toBe('10');
    expect(remaining.at(-2)).toBe(0);
    remaining.slice(1, -1).forEach((value, i) => expect(value).toBe(remaining[i]! - 1));
    const limited = replies.at(-1)!;
    expect([limited.status, limited.json.error]).toEqual([429, 'Rate limit exceeded']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(6);
    expect(new Date(limited.headers.get('x-ratelimit-reset')!).getTime()).toBeGreaterThan(Date.now());
  });
});

describe('completion notifications', () => {
  it('delivers a signed workflow.execution.completed webhook for the selected workflow only', async () => {
    const before = hook.received.length;
    const res = await execute('wf_daily_report', { inputs: { email: 'hook@example.com' } });
    const delivery = await eventually(async () => hook.received.slice(before).find((d) => d.body.includes(res.json.executionId as string)));
    const event = verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: 'whsec-test' });
    expect(event).toMatchObject({ type: 'workflow.execution.completed', data: { workflowId: 'wf_daily_report', executionId: res.json.executionId, status: 'success', level: 'info', trigger: 'api', finalOutput: { sent: true } } });
    expect(delivery.headers['svc-event']).toBe('workflow.execution.completed');
    expect(delivery.headers['idempotency-key']).toBe(delivery.headers['svc-delivery-id']);
    expect(() => verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: 'other' })).toThrow();
    expect(hook.received.some((d) => d.body.includes('"wf_signup_pipeline"'))).toBe(false);
  });
});

describe('alert rules and faults', () => {
  const admin = (path: string, body: unknown) =>
    call(`${sb.admin.workflow}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('notifies only when a rule fires: two consecutive failures, not successes', async () => {
    const bad = await admin('/workspaces/ws_sandbox/notifications', { channels: [{ type: 'webhook', url: 'not a url' }], allWorkflows: true });
    expect(bad.status).toBe(400);
    expect((bad.json.details as { path: string }[]).map((d) => d.path)).toContain('channels.0.url');
    const ok = await admin('/workspaces/ws_sandbox/notifications', {
      channels: [{ type: 'webhook', url: hook.url, secret: 'whsec-test' }],
      allWorkflows: true,
      alertRules: [{ type: 'consecutive_failures', count: 2 }],
    });
    expect(ok.status).toBe(200);
    const before = hook.received.length;
    await execute('wf_daily_report', { inputs: { email: 'fine@example.com' } });
    const first = await execute('wf_broken_query', {});
    const second = await execute('wf_broken_query', {});
    const alert = await eventually(async () => hook.received.slice(before).find((d) => d.body.includes(second.json.executionId as string)));
    expect(verifyWebhook({ body: alert.body, headers: alert.headers, secret: 'whsec-test' }).data).toMatchObject({ status: 'error', level: 'error', workflowId: 'wf_broken_query' });
    // Nothing else can arrive: each execution was evaluated before its call returned, and the
    // notifier queued one delivery only, now acknowledged (no timer can send what is not queued).
    const queued = await eventually(async () => {
      const queue = (await call(`${sb.admin.workflow}/workspaces/ws_sandbox/deliveries`)).json.deliveries as { deliveries: { executionId: string; state: string }[] };
      const { deliveries } = queue;
      return deliveries.every((d) => d.state !== 'pending') ? deliveries : undefined;
    });
    expect(queued.map((d) => [d.executionId, d.state])).toEqual([[second.json.executionId, 'delivered']]);
    const sent = hook.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).not.toContain(first.json.executionId as string);
  });

  it('injects faults into the workflow API in its own error format', async () => {
    try {
      sb.setFaults({ workflow: { rate429: 1 } });
      const limited = await execute('wf_daily_report', { inputs: { email: 'x@example.com' } });
      expect([limited.status, limited.json, limited.headers.get('retry-after')]).toEqual([429, { error: 'Rate limit exceeded' }, '1']);
    } finally {
      sb.setFaults({});
    }
  });
});

describe('X-Execution-Id and the input style', () => {
  const runsOf = async (executionId: string) => {
    const logs = await api(`/api/v1/logs?workspaceId=ws_sandbox&executionId=${executionId}`);
    return (logs.json.data as unknown[]).length;
  };

  it("refuses a reused X-Execution-Id as Sim does (409 EXECUTION_ID_CONFLICT), without running again", async () => {
    const headers = { 'X-Execution-Id': 'exec-retry-1' };
    const first = await execute('wf_daily_report', { inputs: { email: 'a@example.com' } }, { headers });
    const again = await execute('wf_daily_report', { inputs: { email: 'a@example.com' } }, { headers });
    expect([first.status, first.json.executionId]).toEqual([200, 'exec-retry-1']);
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error: 'Execution ID has already been used', code: 'EXECUTION_ID_CONFLICT', executionId: 'exec-retry-1' });
    expect(await runsOf('exec-retry-1')).toBe(1);
    const other = await execute('wf_daily_report', { inputs: { email: 'a@example.com' } }, { headers: { 'X-Execution-Id': 'exec-retry-2' } });
    expect([other.status, other.json.executionId]).toEqual([200, 'exec-retry-2']);
  });

  it('gives the id back when the call was refused before it ran, and refuses an id Sim would not take', async () => {
    const headers = { 'X-Execution-Id': 'exec-refused-1' };
    const refused = await execute('wf_daily_report', { inputs: {} }, { headers });
    expect(refused.status).toBe(400);
    const ran = await execute('wf_daily_report', { inputs: { email: 'a@example.com' } }, { headers });
    expect([ran.status, ran.json.executionId]).toEqual([200, 'exec-refused-1']);
    const bad = await execute('wf_daily_report', { inputs: { email: 'a@example.com' } }, { headers: { 'X-Execution-Id': 'no spaces' } });
    expect([bad.status, bad.json.error]).toEqual([400, 'Invalid execution ID header']);
  });

  it('remembers a bounded number of X-Execution-Ids, forgetting the oldest first', async () => {
    const send = (id: string) => execute('wf_daily_report', { inputs: { email: 'a@example.com' }, async: true }, { headers: { 'X-Execution-Id': id } });
    for (const id of ['bound-1', 'bound-2', 'bound-3', 'bound-4']) expect((await send(id)).status).toBe(202);
    expect((await send('bound-4')).status).toBe(409);
    expect((await send('bound-2')).status).toBe(409);
    // Four ids into a memory of three: the oldest, bound-1, was forgotten and runs again.
    expect((await send('bound-1')).status).toBe(202);
  });

  it('reads a spec body by default: a flat body misses the required inputs', async () => {
    const flat = await execute('wf_daily_report', { email: 'a@example.com' });
    expect(flat.status).toBe(400);
  });
});
