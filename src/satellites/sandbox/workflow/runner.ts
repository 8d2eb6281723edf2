import { randomUUID } from 'node:crypto';
import { runTool } from '../../../harness/run/execute.js';
import { getBlock } from '../../../registry.js';
import { executionOrder, type WorkflowDef } from './definition.js';
import { resolveReferences, type ReferenceScope } from './references.js';

export type Trigger = 'api' | 'webhook' | 'schedule' | 'manual' | 'chat';

/** One block's run, as a trace span. */
export interface TraceSpan {
  id: string;
  name: string;
  type: string;
  blockId: string;
  operation: string;
  toolId?: string;
  status: 'success' | 'error';
  startTime: string;
  endTime: string;
  duration: number;
  output?: unknown;
  error?: string;
}

export interface Cost {
  total: number;
  tokens: { prompt: number; completion: number; total: number };
  models: Record<string, { input: number; output: number; total: number; tokens: { prompt: number; completion: number; total: number } }>;
}

/** A finished execution: what the log, the job and the notification are built from. */
export interface ExecutionRecord {
  id: string;
  executionId: string;
  workflowId: string;
  workspaceId: string;
  level: 'info' | 'error';
  trigger: Trigger;
  startedAt: string;
  endedAt: string;
  totalDurationMs: number;
  cost: Cost;
  files: null;
  traceSpans: TraceSpan[];
  finalOutput: unknown;
  error?: string;
  /** The workflow as it ran (blocks with their references, not resolved values: no secrets). */
  workflowState: { blocks: Record<string, unknown>; edges: unknown[]; loops: Record<string, never>; parallels: Record<string, never> };
}

/** Sandbox pricing, so cost filters and cost rules have something to work on: a base fee plus one per block run. */
export const COST_PER_EXECUTION = 0.001;
export const COST_PER_BLOCK = 0.0005;

export interface RunContext {
  env: Record<string, string>;
  endpoints: Record<string, string>;
}

function sqlTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Runs a workflow's blocks in edge order. Each block's editor values are resolved
 * against the inputs and earlier outputs, turned into a tool and params by the block's
 * own `resolve`, and executed through the harness, like any program using flowblocks.
 * The first failing block ends the run with level `error`.
 */
export async function runWorkflow(
  workflow: WorkflowDef,
  inputs: Record<string, unknown>,
  trigger: Trigger,
  ctx: RunContext,
  executionId: string = randomUUID(),
): Promise<ExecutionRecord> {
  const started = new Date();
  const scope: ReferenceScope = { inputs, env: ctx.env, blocks: new Map(), now: sqlTime(started) };
  const spans: TraceSpan[] = [];
  let error: string | undefined;
  let last: unknown;
  for (const blockId of executionOrder(workflow)) {
    const def = workflow.blocks[blockId]!;
    const spanStart = new Date();
    const span: Omit<TraceSpan, 'status' | 'endTime' | 'duration'> = {
      id: `span_${randomUUID()}`,
      name: def.name ?? blockId,
      type: def.type,
      blockId,
      operation: def.operation,
      startTime: spanStart.toISOString(),
    };
    const finish = (fields: Pick<TraceSpan, 'status'> & Partial<TraceSpan>) => {
      const end = new Date();
      spans.push({ ...span, ...fields, endTime: end.toISOString(), duration: end.getTime() - spanStart.getTime() });
    };
    try {
      const block = getBlock(def.type);
      if (!block) throw new Error(`no block type ${def.type} in the registry`);
      const values = resolveReferences(def.params, scope) as Record<string, unknown>;
      const { tool, params } = block.resolve({ ...values, operation: def.operation });
      span.toolId = tool.id;
      const result = await runTool(tool, params, { endpoints: ctx.endpoints });
      if (!result.success) {
        error = `${blockId}: ${result.error.message}`;
        finish({ status: 'error', error: result.error.message });
        break;
      }
      scope.blocks.set(blockId, result.output);
      last = result.output;
      finish({ status: 'success', output: result.output });
    } catch (thrown) {
      error = `${blockId}: ${(thrown as Error).message}`;
      finish({ status: 'error', error: (thrown as Error).message });
      break;
    }
  }
  const ended = new Date();
  const finalOutput = error ? { error } : workflow.output === undefined ? last : resolveReferences(workflow.output, scope);
  const total = Number((COST_PER_EXECUTION + COST_PER_BLOCK * spans.length).toFixed(6));
  return {
    id: `log_${randomUUID()}`,
    executionId,
    workflowId: workflow.id,
    workspaceId: workflow.workspaceId,
    level: error ? 'error' : 'info',
    trigger,
    startedAt: started.toISOString(),
    endedAt: ended.toISOString(),
    totalDurationMs: ended.getTime() - started.getTime(),
    cost: { total, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} },
    files: null,
    traceSpans: spans,
    finalOutput,
    ...(error ? { error } : {}),
    workflowState: { blocks: workflow.blocks, edges: workflow.edges, loops: {}, parallels: {} },
  };
}
