/**
 * `flowblocks/sim`: the blocks and tools as Sim's `BlockConfig` and `ToolConfig`, ready to
 * spread into a Sim fork's `BLOCK_REGISTRY` and `tools` maps. Every adapted tool runs through
 * the flowblocks harness (Sim's `directExecution`), so validation, retries, pacing, idempotency
 * keys and redaction are the same as anywhere else. No runtime dependency on Sim or React: the
 * types below are the subset of Sim's that the adapter fills (test/engines checks them against
 * Sim's own), and the icon is drawn with the `createElement` the fork passes in.
 */
import type { Block } from '../blocks/define-block.js';
import type { FieldManifest, OutputManifest } from '../blocks/manifest.js';
import { callOptions, coerceParams, errorLine, outputRecord, paramInfo } from '../engines/params.js';
import { runTool } from '../harness/execute.js';
import type { AnyTool, ExecuteOptions } from '../harness/types.js';
import { listBlocks } from '../registry.js';

/**
 * The default prefix of adapted tool ids and block types. Sim's registries hold about 5 100
 * tool ids and 340 block types named after the service or feature they serve (`tinybird_query`,
 * `loops_send_event`, the `workflow` block); none starts with `flowblocks_`, and a new Sim
 * integration would be named after its service, not after this package.
 */
export const DEFAULT_SIM_PREFIX = 'flowblocks_';

export interface SimToolOptions {
  /** Put before every tool id (`flowblocks_tinybird_query`). Default `flowblocks_`. */
  idPrefix?: string;
  /** Harness options of every call (dispatcher, retry, time limit, logger, endpoints, …); a function is read per call. */
  execute?: ExecuteOptions | (() => ExecuteOptions);
  /** The blocks to adapt (default: every registered block). */
  blocks?: Block[];
}

export interface SimBlockOptions<E = unknown> extends SimToolOptions {
  /** Put before every block type (`flowblocks_tinybird`). Default `flowblocks_`. */
  blockTypePrefix?: string;
  /** React's `createElement` (Sim's), to draw the block's SVG icon. */
  createElement: (type: string, props: Record<string, unknown>) => E;
}

type Scalar = string | number | boolean;

/** Sim's `condition` / `required` rule on another field's value. */
export interface SimFieldRule {
  field: string;
  value: Scalar | Scalar[];
}

/** The part of Sim's `SubBlockConfig` the adapter fills. */
export interface SimSubBlock {
  id: string;
  title?: string;
  type: 'short-input' | 'long-input' | 'dropdown' | 'code' | 'switch';
  paramVisibility?: 'user-or-llm' | 'user-only';
  required?: boolean | SimFieldRule;
  condition?: SimFieldRule;
  defaultValue?: string | number | boolean | Record<string, unknown> | unknown[];
  options?: { id: string; label: string }[];
  placeholder?: string;
  password?: boolean;
  description?: string;
  language?: 'json';
  generationType?: 'sql-query';
  wandConfig?: { enabled: boolean; prompt: string; generationType?: 'sql-query'; placeholder?: string };
}

export type SimValueType = 'string' | 'number' | 'boolean' | 'json' | 'array' | 'any';

/** The part of Sim's `BlockConfig` the adapter fills. */
export interface SimBlockConfig<E = unknown> {
  type: string;
  name: string;
  description: string;
  longDescription?: string;
  category: 'tools';
  docsLink?: string;
  bgColor: string;
  icon: (props: Record<string, unknown>) => E;
  subBlocks: SimSubBlock[];
  tools: {
    access: string[];
    config: {
      tool: (params: Record<string, unknown>) => string;
      params: (params: Record<string, unknown>) => Record<string, unknown>;
    };
  };
  inputs: Record<string, { type: 'string' | 'number' | 'boolean' | 'json'; description?: string }>;
  outputs: Record<string, { type: SimValueType; description?: string; condition?: SimFieldRule }>;
}

/** The part of Sim's `ToolResponse` the adapter returns. */
export interface SimToolResponse {
  success: boolean;
  output: Record<string, unknown>;
  error?: string;
  statusCode?: number;
  timing?: { startTime: string; endTime: string; duration: number };
}

type SimOutputType = 'string' | 'number' | 'boolean' | 'json' | 'array' | 'object';

/** The part of Sim's `ToolConfig` the adapter fills. */
export interface SimToolConfig {
  id: string;
  name: string;
  description: string;
  version: string;
  params: Record<
    string,
    { type: string; required?: boolean; visibility?: 'user-or-llm' | 'user-only'; default?: unknown; description?: string }
  >;
  outputs?: Record<string, { type: SimOutputType; description?: string; optional?: boolean }>;
  /** Never sent: `directExecution` runs the call. Sim's type asks for a request description. */
  request: { url: string; method: 'POST'; headers: () => Record<string, string> };
  directExecution: (params: Record<string, unknown>, signal?: AbortSignal) => Promise<SimToolResponse>;
}

function blocksOf(options: SimToolOptions): Block[] {
  return options.blocks ?? listBlocks();
}


/** A tool as Sim's `ToolConfig`, run by the harness. */
export function toSimTool(tool: AnyTool, options: SimToolOptions = {}): SimToolConfig {
  const prefix = options.idPrefix ?? DEFAULT_SIM_PREFIX;
  const params: SimToolConfig['params'] = {};
  for (const p of paramInfo(tool)) {
    params[p.name] = {
      type: p.type,
      required: p.required,
      visibility: p.visibility,
      ...(p.description ? { description: p.description } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
    };
  }
  return {
    id: prefix + tool.id,
    name: tool.name,
    description: tool.description,
    version: '1.0.0',
    params,
    outputs: outputsOf(tool, blocksOf(options)),
    request: { url: 'flowblocks://direct-execution', method: 'POST', headers: () => ({}) },
    async directExecution(values, signal) {
      const startTime = new Date();
      const result = await runTool(tool, coerceParams(tool, values), callOptions(options.execute, signal));
      const endTime = new Date();
      const timing = { startTime: startTime.toISOString(), endTime: endTime.toISOString(), duration: endTime.getTime() - startTime.getTime() };
      if (result.success) return { success: true, output: outputRecord(result), statusCode: result.meta.status, timing };
      // Sim shows `error` as text and keeps `output` beside it: the code and issues stay readable there.
      const { code, message, status, issues, retryable } = result.error;
      return {
        success: false,
        output: { error: { code, message, status, retryable, issues: issues ?? [] } },
        error: errorLine(result.error),
        statusCode: status,
        timing,
      };
    },
  };
}

function outputsOf(tool: AnyTool, blocks: Block[]): SimToolConfig['outputs'] {
  const block = blocks.find((b) => b.tools.includes(tool));
  const op = block && Object.entries(block.manifest.tools.byOperation).find(([, id]) => id === tool.id)?.[0];
  const outputs = op ? block.manifest.outputs[op] : undefined;
  if (!outputs) return undefined;
  return Object.fromEntries(
    Object.entries(outputs).map(([name, o]) => [name, { type: o.type, ...(o.description ? { description: o.description } : {}), ...(o.optional ? { optional: true } : {}) }]),
  );
}

/** Every adapted tool, keyed by its prefixed id, for Sim's `tools` map. */
export function toSimTools(options: SimToolOptions = {}): Record<string, SimToolConfig> {
  const tools: Record<string, SimToolConfig> = {};
  for (const block of blocksOf(options)) {
    for (const tool of block.tools) {
      const config = toSimTool(tool, options);
      tools[config.id] = config;
    }
  }
  return tools;
}

/** Attributes of the icon's root `<svg>` in React's spelling, and its inner markup. */
function iconParts(svg: string): { attributes: Record<string, string>; inner: string } {
  const open = /^\s*<svg\b([^>]*)>/i.exec(svg);
  const attributes: Record<string, string> = {};
  for (const [, name, value] of (open?.[1] ?? '').matchAll(/([\w:-]+)="([^"]*)"/g)) {
    if (name === 'xmlns' || name === undefined || value === undefined) continue;
    attributes[name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())] = value;
  }
  const inner = open ? svg.slice(open[0].length).replace(/<\/svg>\s*$/i, '') : svg;
  return { attributes, inner };
}

function subBlockOf(field: FieldManifest, allOps: string[], blockName: string): SimSubBlock {
  const ops = field.condition?.value ?? allOps;
  const sub: SimSubBlock = { id: field.id, title: field.title, type: 'short-input' };
  if (field.type === 'dropdown') {
    sub.type = 'dropdown';
    sub.options = field.options ?? [];
  } else if (field.type === 'switch') sub.type = 'switch';
  else if (field.type === 'long-input') sub.type = 'long-input';
  else if (field.type === 'code') {
    sub.type = 'code';
    // Sim's code languages are javascript, json, python and shell: SQL gets its generation type, NDJSON plain text.
    if (field.language === 'json') sub.language = 'json';
    if (field.language === 'sql') {
      sub.generationType = 'sql-query';
      sub.wandConfig = {
        enabled: true,
        generationType: 'sql-query',
        prompt: `Write one SQL query for ${blockName}. Return only the SQL, with no explanation and no code fences.`,
        placeholder: 'Describe the rows you want…',
      };
    }
  }
  // Sim has no number sub-block: a short input whose text the tool converts (`coerceParams`).
  if (field.password) sub.password = true;
  sub.paramVisibility = field.visibility;
  if (field.description) sub.description = field.description;
  if (field.placeholder) sub.placeholder = field.placeholder;
  if (field.default !== undefined) {
    const value = field.default;
    if (field.type === 'number') sub.defaultValue = String(value);
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') sub.defaultValue = value;
    else if (field.type === 'code' && typeof value === 'object' && value !== null) sub.defaultValue = JSON.stringify(value, null, 2);
  }
  if (field.requiredFor.length > 0) {
    const always = field.requiredFor.length === ops.length;
    sub.required = always ? true : { field: 'operation', value: field.requiredFor };
  }
  if (field.condition) sub.condition = { field: 'operation', value: field.condition.value };
  return sub;
}

function outputType(o: OutputManifest): SimValueType {
  // Sim's block outputs have no `object`: objects are `json`.
  return o.type === 'object' ? 'json' : o.type;
}

/** One flat list of outputs, each with the operations that produce it (none when all do). */
function blockOutputs(block: Block): SimBlockConfig['outputs'] {
  const allOps = Object.keys(block.manifest.outputs);
  const merged = new Map<string, { type: SimValueType; description?: string; ops: string[] }>();
  for (const [op, outputs] of Object.entries(block.manifest.outputs)) {
    for (const [name, o] of Object.entries(outputs)) {
      const entry = merged.get(name);
      if (!entry) {
        merged.set(name, { type: outputType(o), description: o.description, ops: [op] });
        continue;
      }
      entry.ops.push(op);
      if (entry.type !== outputType(o)) entry.type = 'any';
    }
  }
  const result: SimBlockConfig['outputs'] = {};
  for (const [name, { type, description, ops }] of merged) {
    result[name] = { type, ...(description ? { description } : {}), ...(ops.length < allOps.length ? { condition: { field: 'operation', value: ops } } : {}) };
  }
  return result;
}

/** A block as Sim's `BlockConfig`: its fields as sub-blocks, its operations as tools. */
export function toSimBlock<E>(block: Block, options: SimBlockOptions<E>): SimBlockConfig<E> {
  const idPrefix = options.idPrefix ?? DEFAULT_SIM_PREFIX;
  const typePrefix = options.blockTypePrefix ?? DEFAULT_SIM_PREFIX;
  const { manifest } = block;
  const allOps = Object.keys(manifest.tools.byOperation);
  const { attributes, inner } = iconParts(manifest.icon);
  const createElement = options.createElement;
  const fields = manifest.fields;
  const config: SimBlockConfig<E> = {
    type: typePrefix + manifest.type,
    name: manifest.name,
    description: manifest.description,
    longDescription: `${manifest.description} Runs through flowblocks: params are checked (rules between fields included) before any request is sent.`,
    category: 'tools',
    bgColor: manifest.color,
    icon: (props) => createElement('svg', { ...attributes, ...props, dangerouslySetInnerHTML: { __html: inner } }),
    subBlocks: fields.map((field) => subBlockOf(field, allOps, manifest.name)),
    tools: {
      access: manifest.tools.access.map((id) => idPrefix + id),
      config: {
        tool: (params) => {
          const op = typeof params.operation === 'string' ? params.operation : allOps[0]!;
          const id = manifest.tools.byOperation[op];
          if (!id) throw new Error(`block ${manifest.name} has no operation ${op} (known: ${allOps.join(', ')})`);
          return idPrefix + id;
        },
        // The editor's values by field id, to the tool's params by name, for the chosen operation.
        // Sim merges the result over every stored value (`{ ...inputs, ...params(inputs) }`), so
        // each field's id and param is set here, `undefined` when the operation does not show it:
        // another operation's value (`subscribed` of create_contact) must not reach this tool.
        params: (params) => {
          const op = typeof params.operation === 'string' ? params.operation : allOps[0]!;
          const out: Record<string, unknown> = {};
          for (const field of fields) {
            if (field.id === 'operation') continue;
            out[field.id] = undefined;
            out[field.param] = undefined;
          }
          for (const field of fields) {
            if (field.id === 'operation' || (field.condition && !field.condition.value.includes(op))) continue;
            const value = params[field.id];
            if (value !== undefined && value !== '') out[field.param] = value;
          }
          return out;
        },
      },
    },
    inputs: manifest.inputs,
    outputs: blockOutputs(block),
  };
  if (manifest.docsUrl) config.docsLink = manifest.docsUrl;
  return config;
}

/** Every block and tool, for `BLOCK_REGISTRY` and `tools`: `{ ...BLOCK_REGISTRY, ...registry.blocks }`. */
export function toSimRegistry<E>(options: SimBlockOptions<E>): { blocks: Record<string, SimBlockConfig<E>>; tools: Record<string, SimToolConfig> } {
  const blocks: Record<string, SimBlockConfig<E>> = {};
  for (const block of blocksOf(options)) {
    const config = toSimBlock(block, options);
    blocks[config.type] = config;
  }
  return { blocks, tools: toSimTools(options) };
}
