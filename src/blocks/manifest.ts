import { z } from 'zod';
import { fieldMeta, paramShape, type FieldMeta } from '../harness/define/fields.js';
import type { BlockCatalog } from '../harness/define/service.js';
import type { AnyTool } from '../harness/types.js';

/** A JSON Schema node, as far as the manifest reads it. */
interface JsonSchemaNode {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  anyOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
}

export type FieldType = 'dropdown' | 'short-input' | 'long-input' | 'code' | 'switch' | 'number';
export type ValueType = 'string' | 'number' | 'boolean' | 'json';

/** One editor field, shown for the operations in `condition`. */
export interface FieldManifest {
  id: string;
  /** The tool param this field fills. */
  param: string;
  title: string;
  type: FieldType;
  description?: string;
  /** Required for these operations (a field may be optional in one and required in another). */
  requiredFor: string[];
  visibility: FieldMeta['visibility'];
  password?: boolean;
  language?: string;
  placeholder?: string;
  options?: { id: string; label: string }[];
  default?: unknown;
  condition?: { field: 'operation'; value: string[] };
}

export interface OutputManifest {
  type: ValueType | 'array' | 'object';
  description?: string;
  optional?: boolean;
}

export interface BlockManifest {
  type: string;
  name: string;
  description: string;
  category: 'tools';
  color: string;
  /** A small square SVG drawn in `currentColor`, shown on the block's colour. */
  icon: string;
  docsUrl?: string;
  /** Its place in a host's catalog (kind and tags), when the service gives one. */
  catalog?: BlockCatalog;
  tools: { access: string[]; operationField: 'operation'; byOperation: Record<string, string> };
  fields: FieldManifest[];
  inputs: Record<string, { type: ValueType; description?: string }>;
  outputs: Record<string, Record<string, OutputManifest>>;
}

export interface BlockOperation {
  id: string;
  label: string;
  tool: AnyTool;
}

export interface BlockDefinition {
  type: string;
  name: string;
  description: string;
  color: string;
  /** A small square SVG drawn in `currentColor` (the editor shows it on `color`). */
  icon: string;
  docsUrl?: string;
  catalog?: BlockCatalog;
  operations: BlockOperation[];
}

/** Words a param name spells that read otherwise in a label: acronyms, and the services' own terms. */
const LABEL_WORDS: Record<string, string> = {
  url: 'URL',
  urls: 'URLs',
  id: 'ID',
  ids: 'IDs',
  api: 'API',
  sql: 'SQL',
  json: 'JSON',
  ms: '(ms)',
  datasource: 'Data Source',
  q: 'SQL',
};

/** A label that reads as words: `base_url` → "Base URL", `apiKey` → "API key", `workflowId` → "Workflow ID". */
export function titleOf(name: string): string {
  const words = name
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .filter(Boolean)
    .map((word) => LABEL_WORDS[word] ?? word);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function typeOf(node: JsonSchemaNode): string | undefined {
  if (Array.isArray(node.type)) return node.type.find((t) => t !== 'null');
  if (node.type) return node.type;
  const branches = (node.anyOf ?? []).map(typeOf).filter((t) => t && t !== 'null');
  return new Set(branches).size === 1 ? branches[0] : undefined;
}

function valueType(node: JsonSchemaNode): ValueType {
  const type = typeOf(node);
  if (type === 'string') return 'string';
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'boolean') return 'boolean';
  return 'json';
}

function fieldType(node: JsonSchemaNode, meta: FieldMeta): Pick<FieldManifest, 'type' | 'language' | 'options'> {
  if (meta.ui === 'code') return { type: 'code', language: meta.language };
  if (meta.ui === 'json') return { type: 'code', language: 'json' };
  if (meta.ui === 'long-text') return { type: 'long-input' };
  if (node.enum) {
    return { type: 'dropdown', options: node.enum.map((value) => ({ id: String(value), label: String(value) })) };
  }
  const type = valueType(node);
  if (type === 'boolean') return { type: 'switch' };
  if (type === 'number') return { type: 'number' };
  if (type === 'json') return { type: 'code', language: 'json' };
  return { type: 'short-input' };
}

const schemaCache = new WeakMap<z.ZodType, JsonSchemaNode>();

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaNode {
  const cached = io === 'input' ? schemaCache.get(schema) : undefined;
  if (cached) return cached;
  const node = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchemaNode;
  if (io === 'input') schemaCache.set(schema, node);
  return node;
}

/** One candidate field per (operation, param), before equal ones are merged. */
interface Candidate {
  param: string;
  operation: string;
  required: boolean;
  field: Omit<FieldManifest, 'id' | 'requiredFor' | 'condition'>;
  signature: string;
}

function candidatesOf(op: BlockOperation): Candidate[] {
  const schema = jsonSchemaOf(op.tool.params, 'input');
  const shape = paramShape(op.tool.params);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([param, node]) => {
    const meta = shape[param] ? fieldMeta(shape[param]) : { visibility: 'user-or-llm' as const };
    const field: Candidate['field'] = {
      param,
      title: titleOf(param),
      ...fieldType(node, meta),
      visibility: meta.visibility,
    };
    if (node.description) field.description = node.description;
    if (meta.ui === 'password') field.password = true;
    if (meta.placeholder) field.placeholder = meta.placeholder;
    if (node.default !== undefined) field.default = node.default;
    // Fields merge across operations when they take the same kind of value; the first
    // operation's wording wins, so one "Datasource" field serves every operation.
    const { title: _title, description: _description, placeholder: _placeholder, ...kind } = field;
    return { param, operation: op.id, required: required.has(param), field, signature: JSON.stringify(kind) };
  });
}

/** Fields derived from the tools: one per param, merged across operations where the param is the same. */
function deriveFields(def: BlockDefinition): FieldManifest[] {
  const groups = new Map<string, { field: Candidate['field']; ops: string[]; requiredFor: string[] }>();
  for (const op of def.operations) {
    for (const c of candidatesOf(op)) {
      const key = c.signature;
      const group = groups.get(key) ?? { field: c.field, ops: [], requiredFor: [] };
      group.ops.push(c.operation);
      if (c.required) group.requiredFor.push(c.operation);
      groups.set(key, group);
    }
  }
  const allOps = def.operations.map((op) => op.id);
  const taken = new Set<string>(['operation']);
  const fields: FieldManifest[] = [];
  for (const { field, ops, requiredFor } of groups.values()) {
    // The same name with another type or meaning in another operation gets its own field id.
    const id = taken.has(field.param) ? `${ops[0]}_${field.param}` : field.param;
    taken.add(id);
    const manifest: FieldManifest = { id, ...field, requiredFor };
    if (ops.length < allOps.length) manifest.condition = { field: 'operation', value: ops };
    fields.push(manifest);
  }
  return fields;
}

function deriveOutputs(tool: AnyTool): Record<string, OutputManifest> {
  const schema = jsonSchemaOf(tool.output, 'output');
  const required = new Set(schema.required ?? []);
  const outputs: Record<string, OutputManifest> = {};
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    const type = typeOf(node);
    const entry: OutputManifest = {
      type: type === 'array' ? 'array' : type === 'object' ? 'object' : valueType(node),
    };
    if (node.description) entry.description = node.description;
    if (!required.has(name)) entry.optional = true;
    outputs[name] = entry;
  }
  return outputs;
}

/** The serializable manifest an editor renders: everything derived from the tools. */
export function deriveManifest(def: BlockDefinition): BlockManifest {
  const operationField: FieldManifest = {
    id: 'operation',
    param: 'operation',
    title: 'Operation',
    type: 'dropdown',
    requiredFor: def.operations.map((op) => op.id),
    visibility: 'user-only',
    options: def.operations.map((op) => ({ id: op.id, label: op.label })),
    default: def.operations[0]?.id,
  };
  const fields = [operationField, ...deriveFields(def)];
  const inputs: BlockManifest['inputs'] = { operation: { type: 'string', description: 'Operation to perform' } };
  for (const field of fields.slice(1)) {
    const op = def.operations.find((o) => o.id === (field.condition?.value[0] ?? def.operations[0]?.id));
    const node = op ? jsonSchemaOf(op.tool.params, 'input').properties?.[field.param] : undefined;
    inputs[field.id] = { type: node ? valueType(node) : 'json' };
    if (field.description) inputs[field.id]!.description = field.description;
  }
  const manifest: BlockManifest = {
    type: def.type,
    name: def.name,
    description: def.description,
    category: 'tools',
    color: def.color,
    icon: def.icon,
    tools: {
      access: def.operations.map((op) => op.tool.id),
      operationField: 'operation',
      byOperation: Object.fromEntries(def.operations.map((op) => [op.id, op.tool.id])),
    },
    fields,
    inputs,
    outputs: Object.fromEntries(def.operations.map((op) => [op.id, deriveOutputs(op.tool)])),
  };
  if (def.docsUrl) manifest.docsUrl = def.docsUrl;
  if (def.catalog) manifest.catalog = { kind: def.catalog.kind, tags: [...def.catalog.tags] };
  return manifest;
}
