import type { AnyTool } from '../harness/types.js';
import { deriveManifest, type BlockDefinition, type BlockManifest } from './manifest.js';

/** A block; `T` is the union of its tools (a registered block's, from the registry's `BlockMap`). */
export interface Block<T extends AnyTool = AnyTool> {
  type: string;
  definition: BlockDefinition;
  tools: T[];
  /** Derived on first read and kept: building JSON Schemas is not work for import time. */
  readonly manifest: BlockManifest;
  /** The tool and its params for a set of editor values (`operation`, required, plus field values). */
  resolve(values: Record<string, unknown>): { tool: T; params: Record<string, unknown> };
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
