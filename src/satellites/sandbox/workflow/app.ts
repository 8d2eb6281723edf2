import { randomUUID } from 'node:crypto';
import { ownValue } from '../../../harness/dictionary.js';
import { bodyText } from '../http/body.js';
import { createRouter } from '../http/router.js';
import type { SandboxRequest, SandboxResponse, ServiceApp } from '../http/types.js';
import { adminRoutes } from './admin-routes.js';
import type { WorkflowDef } from './definition.js';
import { badRequest, PlatformError, type FieldIssue } from './errors.js';
import { listLogs, logDetail, notFound, parseLogQuery } from './logs.js';
import { WorkspaceNotifications } from './notifications.js';
import { runWorkflow, type ExecutionRecord, type RunContext, type Trigger } from './runner.js';
import { PlatformStore, type Job } from './store.js';
import { PLAN_RATES, TokenBuckets, type Counter, type Plan } from './token-bucket.js';

export interface ApiKeyDef {
  key: string;
  workspaceId: string;
  plan: Plan;
}

export interface WorkflowPlatformOptions {
  apiKeys: ApiKeyDef[];
  workflows: unknown[];
  /** Notification settings per workspace id (see `src/satellites/notifications/settings.ts`). */
  notifications?: Record<string, unknown>;
  /** Time an asynchronous job stays queued before it runs. Default 100 ms. */
  jobStepMs?: number;
  /** `X-Execution-Id`s remembered as used (a reuse is 409 `EXECUTION_ID_CONFLICT`). Default 10 000, oldest forgotten first. */
  maxExecutionIds?: number;
  /**
   * How `POST /api/workflows/{id}/execute` reads its body. `spec` (the default): spec 000's
   * `{ "inputs": {...}, "async": bool }`. `flat`: as a Sim deployment reads an API-key
   * caller's body, the whole object minus control fields (`FLAT_CONTROL_FIELDS`) is the
   * input, so `{ "inputs": {...} }` arrives nested as an input named `inputs`, and async
   * mode comes from the `X-Execution-Mode` header only.
   */
  inputStyle?: 'spec' | 'flat';
}

/** Sim's rule for an `X-Execution-Id` (`executionIdSchema` in its API contracts): 1 to 128 of these characters. */
const EXECUTION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The header's id, or Sim's 400 for one it would refuse. */
function checkExecutionId(given: string | string[]): string {
  if (typeof given === 'string' && EXECUTION_ID.test(given)) return given;
  throw new PlatformError(400, 'Invalid execution ID header', [
    { path: 'X-Execution-Id', message: 'Execution ID can only contain letters, numbers, dots, underscores, colons, and hyphens (1 to 128)' },
  ]);
}

/** Body fields a `flat` platform keeps for itself rather than handing to the workflow. */
export const FLAT_CONTROL_FIELDS: readonly string[] = ['stream', 'selectedOutputs'];

/** Usage limits per plan, in USD: the spec does not give them, these are the sandbox's. */
const USAGE_LIMITS: Record<Plan, number> = { free: 10, pro: 100, team: 500, enterprise: 5000 };
const JOB_RETENTION_MS = 24 * 3600 * 1000;

/** The workflow platform of spec 000, server side: execution, jobs, logs, limits, notifications. */
export function createWorkflowPlatform(
  options: WorkflowPlatformOptions,
  run: () => RunContext,
  dataDir: string | undefined,
  log: (line: string) => void,
) {
  const store = new PlatformStore(options.workflows, dataDir);
  const { workflows, records, jobs } = store;
  const save = () => store.save();
  const buckets = new TokenBuckets();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const notifications = new WorkspaceNotifications({ dataDir, endpoints: run().endpoints, log });
  // Settings saved by an earlier run first; the options given now replace them per workspace.
  notifications.restore();
  for (const [workspaceId, settings] of Object.entries(options.notifications ?? {})) notifications.configure(workspaceId, settings);

  const keyOf = (req: SandboxRequest): ApiKeyDef => {
    const presented = req.headers['x-api-key'];
    const key = options.apiKeys.find((k) => k.key === presented);
    if (!key) throw new PlatformError(401, 'Missing or invalid API key');
    return key;
  };

  const limits = (key: ApiKeyDef) => {
    const rates = PLAN_RATES[key.plan];
    const currentPeriodCost = Number(records.filter((r) => r.workspaceId === key.workspaceId).reduce((sum, r) => sum + r.cost.total, 0).toFixed(6));
    return {
      workflowExecutionRateLimit: {
        sync: buckets.peek(`${key.workspaceId}:sync`, rates.sync),
        async: buckets.peek(`${key.workspaceId}:async`, rates.async),
      },
      usage: { currentPeriodCost, limit: USAGE_LIMITS[key.plan], plan: key.plan, isExceeded: currentPeriodCost > USAGE_LIMITS[key.plan] },
    };
  };

  /** Takes a token; the logs endpoints also answer with the X-RateLimit-* headers. */
  const spend = (key: ApiKeyDef, counter: Counter): Record<string, string> => {
    const state = buckets.take(`${key.workspaceId}:${counter}`, PLAN_RATES[key.plan][counter]);
    const headers: Record<string, string> = counter === 'api'
      ? { 'x-ratelimit-limit': String(state.requestsPerMinute), 'x-ratelimit-remaining': String(state.remaining), 'x-ratelimit-reset': state.resetAt }
      : {};
    if (!state.allowed) throw new PlatformError(429, 'Rate limit exceeded', undefined, { ...headers, 'retry-after': String(state.retryAfterSeconds) });
    return headers;
  };

  /** A workflow of the caller's workspace; any other is concealed as not found. */
  const workflowFor = (key: ApiKeyDef, id: string): WorkflowDef => {
    const workflow = workflows.get(id);
    if (!workflow || workflow.workspaceId !== key.workspaceId) throw notFound('Workflow');
    return workflow;
  };

  const finish = (record: ExecutionRecord) => {
    records.push(record);
    save();
    const key = options.apiKeys.find((k) => k.workspaceId === record.workspaceId);
    notifications.completed(record, key ? limits(key) : {});
  };

  const execute = async (workflow: WorkflowDef, inputs: Record<string, unknown>, trigger: Trigger, executionId: string = randomUUID()) => {
    const task = runWorkflow(workflow, inputs, trigger, run(), executionId);
    running.add(task);
    try {
      const record = await task;
      finish(record);
      return record;
    } finally {
      running.delete(task);
    }
  };

  const checkInputs = (
    workflow: WorkflowDef,
    body: unknown,
    style: 'spec' | 'flat' = 'spec',
  ): { inputs: Record<string, unknown>; async: boolean } => {
    if (body === undefined) return { inputs: {}, async: false };
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest([{ path: '', message: 'the body must be a JSON object' }]);
    const flat = style === 'flat' ? Object.fromEntries(Object.entries(body).filter(([name]) => !FLAT_CONTROL_FIELDS.includes(name))) : undefined;
    const { inputs = {}, async = false } = flat ? { inputs: flat } : (body as { inputs?: unknown; async?: unknown });
    const issues: FieldIssue[] = [];
    const inputsOk = typeof inputs === 'object' && inputs !== null && !Array.isArray(inputs);
    if (!inputsOk) issues.push({ path: 'inputs', message: 'must be an object' });
    if (typeof async !== 'boolean') issues.push({ path: 'async', message: 'must be a boolean' });
    const given = (inputsOk ? inputs : {}) as Record<string, unknown>;
    for (const [name, spec] of Object.entries(workflow.inputs)) {
      // The body is the caller's: an input named `constructor` is absent unless it sends one.
      const value = ownValue(given, name);
      if (value === undefined) {
        if (spec.required && inputsOk) issues.push({ path: flat ? name : `inputs.${name}`, message: 'is required' });
        continue;
      }
      const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
      if (type !== spec.type) issues.push({ path: flat ? name : `inputs.${name}`, message: `must be a ${spec.type}` });
    }
    if (issues.length) throw badRequest(issues);
    return { inputs: given, async: async as boolean };
  };

  const jsonBody = (req: SandboxRequest): unknown => {
    const text = bodyText(req);
    if (!text.trim()) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw badRequest([{ path: '', message: 'the body is not valid JSON' }]);
    }
  };

  const router = createRouter({
    notFound: (req) => new PlatformError(404, `Not found: ${req.path}`).toResponse(),
    methodNotAllowed: (req) => new PlatformError(405, `Method ${req.method} not allowed`).toResponse(),
  });

  const executeOnce = async (req: SandboxRequest, key: ApiKeyDef, executionId: string): Promise<SandboxResponse> => {
    const workflow = workflowFor(key, req.params.id!);
    const body = checkInputs(workflow, jsonBody(req), options.inputStyle);
    if (!workflow.deployed) throw new PlatformError(403, 'Workflow is not deployed: deploy it before executing it through the API');
    const asyncMode = body.async || String(req.headers['x-execution-mode'] ?? '').toLowerCase() === 'async';
    spend(key, asyncMode ? 'async' : 'sync');
    if (!asyncMode) {
      const record = await execute(workflow, body.inputs, 'api', executionId);
      const outcome = record.error ? { error: record.error } : { output: record.finalOutput };
      return { status: 200, body: { success: !record.error, executionId: record.executionId, ...outcome, limits: limits(key) } };
    }
    const job: Job = {
      taskId: `task_${randomUUID()}`,
      workspaceId: key.workspaceId,
      workflowId: workflow.id,
      executionId,
      status: 'queued',
      createdAt: new Date().toISOString(),
    };
    jobs.set(job.taskId, job);
    save();
    const timer = setTimeout(() => {
      timers.delete(timer);
      Object.assign(job, { status: 'processing', startedAt: new Date().toISOString() });
      void execute(workflow, body.inputs, 'api', job.executionId).then((record) => {
        Object.assign(job, record.error ? { status: 'failed', error: record.error } : { status: 'completed', output: record.finalOutput });
        job.completedAt = new Date().toISOString();
        save();
      });
    }, options.jobStepMs ?? 100);
    timers.add(timer);
    return { status: 202, body: { success: true, taskId: job.taskId, status: 'queued', executionId: job.executionId, limits: limits(key) } };
  };

  // `X-Execution-Id` as Sim honours it: an id is claimed by the first call that uses it, and a
  // later call with it (its run ended or still running, any workspace) is refused with 409
  // EXECUTION_ID_CONFLICT, so a retried execute never runs twice. A call refused before it ran
  // (bad input, not deployed, rate limited) gives its id back. Bounded: a caller sending a new
  // id per call cannot grow it without end (the oldest forgotten first; Sim keeps them all).
  const claimedExecutionIds = new Set<string>();
  const maxExecutionIds = options.maxExecutionIds ?? 10_000;

  router.post('/api/workflows/:id/execute', async (req) => {
    const key = keyOf(req);
    const given = req.headers['x-execution-id'];
    if (given === undefined) return executeOnce(req, key, randomUUID());
    const executionId = checkExecutionId(given);
    if (claimedExecutionIds.has(executionId)) {
      return { status: 409, body: { error: 'Execution ID has already been used', code: 'EXECUTION_ID_CONFLICT', executionId } };
    }
    claimedExecutionIds.add(executionId);
    if (claimedExecutionIds.size > maxExecutionIds) claimedExecutionIds.delete(claimedExecutionIds.values().next().value!);
    try {
      return await executeOnce(req, key, executionId);
    } catch (refused) {
      claimedExecutionIds.delete(executionId);
      throw refused;
    }
  });

  router.get('/api/jobs/:taskId', (req) => {
    const key = keyOf(req);
    const job = jobs.get(req.params.taskId!);
    const expired = job?.completedAt !== undefined && Date.now() - Date.parse(job.completedAt) > JOB_RETENTION_MS;
    if (!job || job.workspaceId !== key.workspaceId || expired) throw notFound('Task');
    const { workspaceId: _ws, ...record } = job;
    return { status: 200, body: record };
  });

  const logsFor = (key: ApiKeyDef) => records.filter((r) => r.workspaceId === key.workspaceId);

  router.get('/api/v1/logs', (req) => {
    const key = keyOf(req);
    const headers = spend(key, 'api');
    const workspaceId = req.query.get('workspaceId');
    if (!workspaceId) throw badRequest([{ path: 'workspaceId', message: 'is required' }]);
    if (workspaceId !== key.workspaceId) throw notFound('Workspace');
    const page = listLogs(logsFor(key), parseLogQuery(req.query), workflows);
    return { status: 200, headers, body: { ...page, limits: limits(key) } };
  });

  router.get('/api/v1/logs/executions/:executionId', (req) => {
    const key = keyOf(req);
    const headers = spend(key, 'api');
    const record = logsFor(key).find((r) => r.executionId === req.params.executionId);
    if (!record) throw notFound('Execution');
    const { trigger, startedAt, endedAt, totalDurationMs, cost } = record;
    return {
      status: 200,
      headers,
      body: {
        executionId: record.executionId,
        workflowId: record.workflowId,
        workflowState: record.workflowState,
        executionMetadata: { trigger, startedAt, endedAt, totalDurationMs, cost },
        limits: limits(key),
      },
    };
  });

  router.get('/api/v1/logs/:id', (req) => {
    const key = keyOf(req);
    const headers = spend(key, 'api');
    const record = logsFor(key).find((r) => r.id === req.params.id);
    if (!record) throw notFound('Log');
    return { status: 200, headers, body: { data: { ...logDetail(record, workflows.get(record.workflowId)), limits: limits(key) } } };
  });

  adminRoutes(router, { store, notifications, jsonBody, checkInputs, execute });

  const app: ServiceApp = {
    handle: async (req) => {
      try {
        return await router.handle(req);
      } catch (error) {
        if (error instanceof PlatformError) return error.toResponse();
        throw error;
      }
    },
    faultReply: (status) =>
      new PlatformError(status, status === 429 ? 'Rate limit exceeded' : 'Service unavailable', undefined, status === 429 ? { 'retry-after': '1' } : undefined).toResponse(),
  };

  return {
    app,
    workflows,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      notifications.close();
      await Promise.allSettled([...running]);
    },
  };
}
