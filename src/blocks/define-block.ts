import type { AnyTool } from '../harness/types.js';
import { deriveManifest, type BlockDefinition, type BlockManifest } from './manifest.js';

/** An operation id of a tool id: the id without its `<service>_` (`workflow_list_logs` → `list_logs`). */
type OperationOfId<Id extends string> = Id extends `${string}_${infer Op}` ? Op : string;
/** The operation ids of a block of tools `T`; `string` for a block of any tool. */
export type OperationOf<T extends AnyTool> = OperationOfId<T['id']>;
/** `O` when the block has that operation (or either is only known at run time); else a type error naming it. */
export type KnownOperation<O extends string, Ops extends string> = string extends O
  ? O
  : string extends Ops
    ? O
    : O extends Ops
      ? O
      : `no operation '${O}' in this block; an id known only at run time is passed typed as string`;

/** A block; `T` is the union of its tools (a registered block's, from the registry's `BlockMap`). */
export interface Block<T extends AnyTool = AnyTool> {
  type: string;
  definition: BlockDefinition;
  tools: T[];
  /** Derived on first read and kept: building JSON Schemas is not work for import time. */
  readonly manifest: BlockManifest;
  /** The tool and its params for a set of editor values (`operation`, required, plus field values). */
  resolve<O extends string = string>(values: { operation?: KnownOperation<O, OperationOf<T>> } & Record<string, unknown>): { tool: T; params: Record<string, unknown> };
}

export function defineBlock(definition: BlockDefinition): Block {
  let manifest: BlockManifest | undefined;
  const block: Block = {
    type: definition.type,
    definition,
    tools: definition.operations.map((op) => op.tool),
    get manifest() {
      manifest ??= deriveManifest(definition);
      return manifest;
    },
    resolve(values) {
      const operation = values.operation;
      const known = definition.operations.map((o) => o.id).join(', ');
      // No default: the first operation may write (Tinybird's is an ingest); a caller that forgot it must hear so.
      if (operation === undefined || operation === '') throw new Error(`block ${definition.type}: values.operation is required (one of ${known})`);
      const op = definition.operations.find((o) => o.id === operation);
      if (!op) throw new Error(`block ${definition.type} has no operation ${String(operation)} (known: ${known})`);
      const params: Record<string, unknown> = {};
      for (const field of block.manifest.fields) {
        if (field.id === 'operation' || (field.condition && !field.condition.value.includes(op.id))) continue;
        const value = values[field.id];
        if (value === undefined || value === '') continue;
        // Editors hand JSON fields over as text.
        const json = block.manifest.inputs[field.id]?.type === 'json' && typeof value === 'string';
        params[field.param] = json ? JSON.parse(value) : value;
      }
      return { tool: op.tool, params };
    },
  };
  return block;
}
