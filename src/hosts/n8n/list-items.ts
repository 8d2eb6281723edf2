/**
 * Operations that answer records, as n8n's own "Get Many" operations behave: one item per
 * record, "Return All" or "Limit" where the service answers many (following its cursor when
 * it pages), and "Simplify" where a record is wide. Which operations these are is
 * records.ts's one rule.
 */
import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { paginate } from '../../harness/define/paginate.js';
import { ToolCallError } from '../../harness/errors.js';
import { executeTool } from '../../index.js';
import type { AnyTool, ExecuteOptions, ToolError } from '../../harness/types.js';
import { n8nName } from './names.js';
import { recordsShape, simplified } from './records.js';

/** The editor's default of a `limit` property in n8n's own nodes (and its lint's `node-param-default-wrong-for-limit`). */
export const N8N_LIMIT_DEFAULT = 50;

/** A paged tool's params that "Return All" and "Limit" stand for: its cursor, and a page size named as n8n's Limit. */
export function pagedParams(tool: AnyTool): string[] {
  const { pagination } = tool;
  return pagination && recordsShape(tool)?.many ? [pagination.cursorParam, 'limit'] : [];
}

/** "Return All", "Limit" and "Simplify" of the operations that answer records. */
export function listProperties(tools: Map<string, AnyTool>): INodeProperties[] {
  const many: string[] = [];
  const wide: string[] = [];
  for (const [op, tool] of tools) {
    const shape = recordsShape(tool);
    if (shape?.many) many.push(n8nName(op));
    if (shape?.simplified) wide.push(n8nName(op));
  }
  const properties: INodeProperties[] = [];
  if (many.length) {
    properties.push(
      {
        displayName: 'Return All',
        name: 'returnAll',
        type: 'boolean',
        default: false,
        description: 'Whether to return all results or only up to a given limit',
        displayOptions: { show: { operation: many } },
      },
      {
        displayName: 'Limit',
        name: 'limit',
        type: 'number',
        typeOptions: { minValue: 1 },
        default: N8N_LIMIT_DEFAULT,
        description: 'Max number of results to return',
        displayOptions: { show: { operation: many, returnAll: [false] } },
      },
    );
  }
  if (wide.length) {
    properties.push({
      displayName: 'Simplify',
      name: 'simplify',
      type: 'boolean',
      default: true,
      description: 'Whether to return a simplified version of the response instead of the raw data',
      displayOptions: { show: { operation: wide } },
    });
  }
  return properties;
}

/** What the editor asked of a records operation for one item. */
export interface ListChoice {
  returnAll: boolean;
  limit: number;
  simplify: boolean;
}

export type ListOutcome = { success: true; items: INodeExecutionData[] } | { success: false; error: ToolError };

/** A records operation for one input item: its records as items paired with it, or the call's error. */
export async function listItems(tool: AnyTool, params: Record<string, unknown>, options: ExecuteOptions, choice: ListChoice, itemIndex: number): Promise<ListOutcome> {
  const shape = recordsShape(tool)!;
  const cap = shape.many && !choice.returnAll ? choice.limit : Infinity;
  let records: unknown[];
  if (shape.paged && shape.many) {
    records = [];
    try {
      for await (const record of paginate(tool, params, { ...options, maxItems: cap })) records.push(record);
    } catch (error) {
      if (error instanceof ToolCallError) return { success: false, error: error.error };
      throw error;
    }
  } else {
    const result = await executeTool(tool, params, options);
    if (!result.success) return result;
    const output = result.output as Record<string, unknown>;
    const found = output[shape.field];
    // A query in a text format (CSV) has no row objects: its output stays one item.
    if (!Array.isArray(found)) return { success: true, items: [{ json: output as IDataObject, pairedItem: { item: itemIndex } }] };
    records = found.slice(0, cap);
  }
  const keep = choice.simplify ? shape.simplified : undefined;
  return {
    success: true,
    items: records.map((record) => {
      const value = keep ? simplified(record, keep) : record;
      const json = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { value };
      return { json: json as IDataObject, pairedItem: { item: itemIndex } };
    }),
  };
}
