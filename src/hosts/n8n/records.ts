/**
 * Which operations answer with records, as n8n's own nodes emit them: one item per record
 * (a contact, a pipe, a row of a query), not one item wrapping an array. One rule over every
 * tool, read from its definition and output schema, with no tool named:
 *
 * - a tool that names its rows (`rowsField`: a query's rows) lists them;
 * - else a tool whose output is one array of objects, alone or beside what pages it (a tool
 *   with `pagination`: its cursor, totals and limits), lists that array's objects.
 *
 * A record with more fields than n8n's guide allows in a simplified answer (10) gets "Simplify".
 */
import { z } from 'zod';
import type { AnyTool } from '../../harness/types.js';

/** A JSON Schema node, as far as this reads it. */
interface Node {
  type?: string | string[];
  anyOf?: Node[];
  items?: Node;
  properties?: Record<string, Node>;
}

export interface RecordsShape {
  /** The output field that holds the records. */
  field: string;
  /** The service answers many (a list, not a query whose SQL sets its size): "Return All" and "Limit". */
  many: boolean;
  /** The tool pages: "Return All" follows its cursor. */
  paged: boolean;
  /** The record's scalar fields, first 10, when it has more fields than that: what "Simplify" keeps. */
  simplified?: string[];
}

/** n8n's guide for a simplified answer: at most 10 fields. */
const SIMPLIFIED_FIELDS = 10;

const objectNode = (node: Node | undefined): Node | undefined => (node?.properties ? node : node?.anyOf?.find((n) => n.properties));
const arrayItems = (node: Node | undefined): Node | undefined => (node?.items ? node.items : node?.anyOf?.find((n) => n.items)?.items);
const isScalar = (node: Node): boolean => {
  const types = [node.type ?? node.anyOf?.flatMap((n) => n.type ?? [])].flat().filter((t) => t !== 'null');
  return types.length > 0 && types.every((t) => t === 'string' || t === 'number' || t === 'integer' || t === 'boolean');
};

const shapes = new WeakMap<AnyTool, RecordsShape | null>();

/** The records of a tool's output, or undefined when it answers one thing. */
export function recordsShape(tool: AnyTool): RecordsShape | undefined {
  let shape = shapes.get(tool);
  if (shape === undefined) {
    shape = shapeOf(tool) ?? null;
    shapes.set(tool, shape);
  }
  return shape ?? undefined;
}

function shapeOf(tool: AnyTool): RecordsShape | undefined {
  const output = objectNode(z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as Node);
  const properties = output?.properties ?? {};
  const arrays = Object.keys(properties).filter((name) => objectNode(arrayItems(properties[name])));
  const field = tool.rowsField ?? (arrays.length === 1 && (tool.pagination || Object.keys(properties).length === 1) ? arrays[0] : undefined);
  if (field === undefined) return undefined;
  const record = objectNode(arrayItems(properties[field]))?.properties ?? {};
  const names = Object.keys(record);
  const shape: RecordsShape = { field, many: tool.rowsField === undefined, paged: tool.pagination !== undefined };
  if (names.length > SIMPLIFIED_FIELDS) shape.simplified = names.filter((name) => isScalar(record[name]!)).slice(0, SIMPLIFIED_FIELDS);
  return shape;
}

/** A record as "Simplify" gives it: only the fields the shape keeps. */
export function simplified(record: unknown, fields: string[]): unknown {
  if (typeof record !== 'object' || record === null) return record;
  const source = record as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => f in source).map((f) => [f, source[f]]));
}
