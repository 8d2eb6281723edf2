/**
 * What the engine adapters (`flowblocks/sim`, `flowblocks/n8n`) share: reading an editor's
 * values into a tool's params, and a tool result as plain data. Nothing here knows an engine.
 */
import { z } from 'zod';
import { ownValue } from '../../harness/dictionary.js';
import { fieldMeta, paramShape } from '../../harness/define/fields.js';
import type { AnyTool, ExecuteOptions, ToolError, ToolIssue, ToolResult } from '../../harness/types.js';

/** A JSON Schema node, as far as the adapters read it. */
interface Node {
  type?: string | string[];
  anyOf?: Node[];
  required?: string[];
  properties?: Record<string, Node>;
  description?: string;
  default?: unknown;
}

const schemas = new WeakMap<AnyTool, Node>();

/** The JSON Schema of a tool's params (input side), built once per tool. */
export function paramsSchema(tool: AnyTool): Node {
  let schema = schemas.get(tool);
  if (!schema) {
    schema = z.toJSONSchema(tool.params, { io: 'input', unrepresentable: 'any' }) as Node;
    schemas.set(tool, schema);
  }
  return schema;
}

/** The JSON type of a schema node (`integer` as `number`), through nullable unions. */
export function jsonType(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  const pick = (type: string | undefined) => (type === 'integer' ? 'number' : type);
  if (Array.isArray(node.type)) return pick(node.type.find((t) => t !== 'null'));
  if (node.type) return pick(node.type);
  const branches = new Set((node.anyOf ?? []).map(jsonType).filter((t) => t && t !== 'null'));
  return branches.size === 1 ? [...branches][0] : undefined;
}

export interface ParamInfo {
  name: string;
  /** `string`, `number`, `boolean`, `object`, `array`, or `json` when the schema allows several. */
  type: string;
  required: boolean;
  description?: string;
  default?: unknown;
  secret: boolean;
  visibility: 'user-only' | 'user-or-llm';
}

/** A tool's params as the adapters describe them to an engine. */
export function paramInfo(tool: AnyTool): ParamInfo[] {
  const schema = paramsSchema(tool);
  const shape = paramShape(tool.params);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, node]) => {
    const meta = shape[name] ? fieldMeta(shape[name]) : { visibility: 'user-or-llm' as const };
    const info: ParamInfo = {
      name,
      type: jsonType(node) ?? 'json',
      required: required.has(name),
      secret: meta.secret === true,
      visibility: meta.visibility,
    };
    if (node.description) info.description = node.description;
    if (node.default !== undefined) info.default = node.default;
    return info;
  });
}

const NUMBER = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/**
 * The tool's own params out of what an engine hands over: only the tool's param names, empty
 * text dropped, and text converted where the tool wants another type (an editor without a
 * number field sends `"10"`, a code field sends JSON as text). A value that does not convert is
 * passed as it is, so the harness reports it with the param's name.
 */
export function coerceParams(tool: AnyTool, values: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const properties = paramsSchema(tool).properties ?? {};
  for (const name of Object.keys(properties)) {
    const value = ownValue(values, name);
    if (value === undefined || value === null || value === '') continue;
    params[name] = typeof value === 'string' ? fromText(value, jsonType(properties[name])) : value;
  }
  return params;
}

function fromText(value: string, type: string | undefined): unknown {
  if (type === 'number') return NUMBER.test(value) ? Number(value) : value;
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if (type === 'object' || type === 'array' || type === undefined) {
    const text = value.trim();
    if (type === undefined && !/^[[{]/.test(text)) return value;
    try {
      return JSON.parse(text);
    } catch {
      return value;
    }
  }
  return value;
}

/** One issue as text: its path, then its message (an issue of the whole params has no path). */
export function issueText(issue: ToolIssue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
}

/** A failed result's error as one line, for every host: code, message and every issue the message does not already say. */
export function errorLine(error: ToolError): string {
  return `${error.code}: ${errorText(error)}`;
}

/** A failed result's error as a reader takes it: the message and every issue, without the code (`not_found: `). */
export function errorText(error: ToolError): string {
  const issues = (error.issues ?? []).map(issueText);
  // A message that opens with its code in words (`invalid params: …`) says it once.
  const spelled = `${error.code.replaceAll('_', ' ')}: `;
  const head = error.message.startsWith(spelled) ? error.message.slice(spelled.length) : error.message;
  return issues.length && !issues.every((i) => error.message.includes(i)) ? `${head} (${issues.join('; ')})` : head;
}

/** A result's output as a plain object (engines want records; a non-object output is `{ value }`). */
export function outputRecord(result: ToolResult & { success: true }): Record<string, unknown> {
  const { output } = result;
  return typeof output === 'object' && output !== null && !Array.isArray(output) ? (output as Record<string, unknown>) : { value: output };
}

/** An adapter's harness options for one call: the caller's (or its function's), with the engine's abort signal. A copy. */
export function callOptions(execute: ExecuteOptions | (() => ExecuteOptions) | undefined, signal: AbortSignal | undefined): ExecuteOptions {
  const base = typeof execute === 'function' ? execute() : (execute ?? {});
  return signal ? { ...base, signal } : { ...base };
}
