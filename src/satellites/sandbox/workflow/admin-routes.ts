import { ZodError } from 'zod';
import type { createRouter } from '../http/router.js';
import type { SandboxRequest, SandboxResponse } from '../http/types.js';
import { parseWorkflow, type WorkflowDef } from './definition.js';
import { badRequest, type FieldIssue } from './errors.js';
import { notFound } from './logs.js';
import type { WorkspaceNotifications } from './notifications.js';
import type { ExecutionRecord, Trigger } from './runner.js';
import type { PlatformStore } from './store.js';

const TRIGGERS: readonly Trigger[] = ['api', 'webhook', 'schedule', 'manual', 'chat'];

export interface AdminContext {
  store: PlatformStore;
  notifications: WorkspaceNotifications;
  jsonBody(req: SandboxRequest): unknown;
  checkInputs(workflow: WorkflowDef, body: unknown): { inputs: Record<string, unknown> };
  execute(workflow: WorkflowDef, inputs: Record<string, unknown>, trigger: Trigger): Promise<ExecutionRecord>;
}

function issuesOf(error: ZodError): FieldIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/**
 * Sandbox-only administration under `/_sandbox`: register, deploy and run workflows as
 * any trigger, and configure notifications per workspace. No API key: the sandbox
 * listens on loopback only.
 */
export function adminRoutes(router: ReturnType<typeof createRouter>, ctx: AdminContext): void {
  const { store } = ctx;
  router.get('/_sandbox/workflows', () => ({ status: 200, body: { workflows: [...store.workflows.values()] } }));
  router.put('/_sandbox/workflows/:id', (req) => {
    let workflow: WorkflowDef;
    try {
      workflow = parseWorkflow({ ...(ctx.jsonBody(req) as object), id: req.params.id });
    } catch (error) {
      if (error instanceof ZodError) throw badRequest(issuesOf(error));
      throw badRequest([{ path: '', message: (error as Error).message }]);
    }
    store.workflows.set(workflow.id, workflow);
    store.save();
    return { status: 200, body: { workflow } };
  });
  const setDeployed = (deployed: boolean) => (req: SandboxRequest): SandboxResponse => {
    const workflow = store.workflows.get(req.params.id!);
    if (!workflow) throw notFound('Workflow');
    workflow.deployed = deployed;
    store.save();
    return { status: 200, body: { id: workflow.id, deployed } };
  };
  router.post('/_sandbox/workflows/:id/deploy', setDeployed(true));
  router.post('/_sandbox/workflows/:id/undeploy', setDeployed(false));
  router.post('/_sandbox/workflows/:id/run', async (req) => {
    // Runs a workflow as another trigger would (manual, schedule, webhook, chat), for logs of every kind.
    const workflow = store.workflows.get(req.params.id!);
    if (!workflow) throw notFound('Workflow');
    const trigger = (req.query.get('trigger') ?? 'manual') as Trigger;
    if (!TRIGGERS.includes(trigger)) throw badRequest([{ path: 'trigger', message: 'unknown trigger' }]);
    const { inputs } = ctx.checkInputs(workflow, ctx.jsonBody(req));
    const record = await ctx.execute(workflow, inputs, trigger);
    return { status: 200, body: { id: record.id, executionId: record.executionId, level: record.level, output: record.finalOutput } };
  });
  router.put('/_sandbox/workspaces/:id/notifications', (req) => {
    ctx.notifications.configure(req.params.id!, ctx.jsonBody(req));
    return { status: 200, body: { workspaceId: req.params.id, configured: true } };
  });
  router.delete('/_sandbox/workspaces/:id/notifications', (req) => ({
    status: ctx.notifications.remove(req.params.id!) ? 200 : 404,
    body: { workspaceId: req.params.id },
  }));
  router.get('/_sandbox/workspaces/:id/deliveries', (req) => ({
    status: 200,
    body: { deliveries: ctx.notifications.deliveries(req.params.id!) ?? null },
  }));
}
