import { z } from 'zod';

/**
 * A workflow as the sandbox stores it: blocks from the flowblocks registry (block type,
 * operation, editor field values that may reference inputs and earlier blocks), and
 * edges that order them. Field values are keyed by the manifest's field ids, as an
 * editor would save them.
 */
export const workflowSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]+$/),
  name: z.string().min(1),
  description: z.string().default(''),
  workspaceId: z.string().min(1),
  folderId: z.string().min(1).nullable().default(null),
  /** Only deployed workflows run through the API. */
  deployed: z.boolean().default(false),
  /** Declared inputs; a required one missing from the request is a 400 with details. */
  inputs: z
    .record(z.string(), z.strictObject({ type: z.enum(['string', 'number', 'boolean', 'object', 'array']), required: z.boolean().default(false) }))
    .default({}),
  blocks: z.record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
    z.strictObject({
      name: z.string().optional(),
      type: z.string().min(1),
      operation: z.string().min(1),
      params: z.record(z.string(), z.unknown()).default({}),
    }),
  ),
  edges: z.array(z.strictObject({ source: z.string(), target: z.string() })).default([]),
  /** The final output, with references; by default the last block's output. */
  output: z.unknown().optional(),
});

export type WorkflowDef = z.output<typeof workflowSchema>;
export type WorkflowInput = z.input<typeof workflowSchema>;

/** Blocks in an order that respects every edge; throws on an unknown block or a cycle. */
export function executionOrder(workflow: WorkflowDef): string[] {
  const ids = Object.keys(workflow.blocks);
  const incoming = new Map(ids.map((id) => [id, 0]));
  for (const edge of workflow.edges) {
    for (const end of [edge.source, edge.target]) {
      if (!incoming.has(end)) throw new Error(`workflow ${workflow.id}: an edge names an unknown block ${end}`);
    }
    incoming.set(edge.target, incoming.get(edge.target)! + 1);
  }
  const ready = ids.filter((id) => incoming.get(id) === 0);
  const order: string[] = [];
  while (ready.length) {
    const id = ready.shift()!;
    order.push(id);
    for (const edge of workflow.edges.filter((e) => e.source === id)) {
      const left = incoming.get(edge.target)! - 1;
      incoming.set(edge.target, left);
      if (left === 0) ready.push(edge.target);
    }
  }
  if (order.length !== ids.length) throw new Error(`workflow ${workflow.id}: the edges form a cycle`);
  return order;
}

/** Validates a workflow definition (JSON file content or fixture object). */
export function parseWorkflow(input: unknown): WorkflowDef {
  const workflow = workflowSchema.parse(input);
  executionOrder(workflow);
  return workflow;
}
