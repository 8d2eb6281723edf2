/**
 * A block manifest as Sim's `BlockConfig` and `BlockMeta`: pure data and an icon component,
 * nothing that runs a tool. Sim imports its block registry from `'use client'` components, so
 * this file imports no module at run time (types only); `flowblocks/sim/blocks` serves it to
 * the editor and `flowblocks/sim` to the server.
 */

/** The default prefix of adapted tool ids and block types (see docs/engines.md). */
export const DEFAULT_SIM_PREFIX = 'flowblocks_';

/**
 * The default block name: the service's name marked as ours, so that Sim's toolbar never shows
 * two "Tinybird" and Sim's name-derived slugs (`tinybird-flowblocks`) never equal one of its own.
 */
export function defaultSimBlockName(name: string): string {
  return `${name} (flowblocks)`;
}

/**
 * The manifest fields the conversion reads, typed loosely enough that a manifest read from
 * JSON (`flowblocks manifest <type>`, where JSON gives `string`, not a union) is one too.
 */
export interface SimBlockSource {
  type: string;
  name: string;
  description: string;
  color: string;
  icon: string;
  docsUrl?: string;
  catalog?: { kind: string; tags: readonly string[] };
  tools: { access: readonly string[]; byOperation: Readonly<Record<string, string>>; readOnly?: readonly string[] };
  fields: readonly {
    id: string;
    param: string;
    title: string;
    type: string;
    description?: string;
    requiredFor: readonly string[];
    visibility: string;
    password?: boolean;
    language?: string;
    placeholder?: string;
    options?: readonly { id: string; label: string }[];
    default?: unknown;
    condition?: { field: string; value: readonly string[] };
  }[];
  inputs: Readonly<Record<string, { type: string; description?: string }>>;
  outputs: Readonly<Record<string, Readonly<Record<string, { type: string; description?: string; optional?: boolean }>>>>;
}

export interface SimBlockOptions<E = unknown, I extends string = string, M extends string = never> {
  /** Put before every tool id (`flowblocks_tinybird_query`). Default `flowblocks_`; the tools' `idPrefix` must be the same. */
  idPrefix?: string;
  /** Put before every block type (`flowblocks_tinybird`). Default `flowblocks_`. */
  blockTypePrefix?: string;
  /** React's `createElement` (Sim's), to draw the block's SVG icon. */
  createElement: (type: string, props: Record<string, unknown>) => E;
  /** The name shown in Sim's toolbar, from the service's name. Default `<name> (flowblocks)`. */
  name?: (serviceName: string) => string;
  /**
   * `'unlisted'` (default): the blocks are in Sim's Blocks list and run as any block, and stay out
   * of Sim's integration catalog (`category: 'blocks'`, Sim's way to keep a block off its catalog,
   * docs and integration checks). `'listed'`: `category: 'tools'`, in the catalog; Sim's checks
   * then want a docs page and a catalog entry per block (docs/engines.md).
   */
  catalog?: 'unlisted' | 'listed';
  /** The block's help link: the service's API docs (default), Sim's integration page, or none. */
  docsLink?: 'service' | 'sim' | 'none';
  /** Sim's `IntegrationType` enum (pass it as is): the block's `integrationType` is its member for the block's kind. */
  integrationTypes?: Readonly<Record<string, I>>;
  /** Sim's `AuthMode.ApiKey` (pass the enum member): every block is reached with an API key or token, which the card says. */
  authMode?: M;
}

type Scalar = string | number | boolean;

/**
 * Params whose default differs in Sim, by tool id: what a Sim deployment reads. The workflow
 * platform's execute body is `flat` there (docs/engines.md, "The workflow block against a real
 * Sim"); its default `spec` is the spec's platform. Applied to the sub-block's default, the
 * tool's param default and every call that leaves the param unset.
 */
export const SIM_PARAM_DEFAULTS: Readonly<Record<string, Readonly<Record<string, Scalar>>>> = {
  workflow_execute: { inputStyle: 'flat' },
};

/** Sim's default of a field: the one of `SIM_PARAM_DEFAULTS` for the tools of the operations that show it, else the manifest's. */
function simDefaultOf(field: SourceField, ops: readonly string[], byOperation: ReadonlyMap<string, string>): unknown {
  for (const op of ops) {
    const value = SIM_PARAM_DEFAULTS[byOperation.get(op) ?? '']?.[field.param];
    if (value !== undefined) return value;
  }
  return field.default;
}

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
  /** The value a new block starts with (Sim's way for a dropdown: `value: () => 'query'`). */
  value?: (params: Record<string, unknown>) => string;
  /** `'advanced'`: shown once the card is switched to advanced (optional fields with a default). */
  mode?: 'advanced';
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
export interface SimBlockConfig<E = unknown, I extends string = string, M extends string = never> {
  type: string;
  name: string;
  description: string;
  longDescription?: string;
  category: 'tools' | 'blocks';
  integrationType?: I;
  authMode?: M;
  docsLink?: string;
  bgColor: string;
  /** A component as Sim's `BlockIcon` is: any props object (Sim passes `SVGProps<SVGSVGElement>`). */
  icon: (props: object) => E;
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
  /** What Sim's canvas card says in place of its field rows: one sentence per operation. */
  canvasPresentation: SimCanvasPresentation;
}

/** A clause of Sim's `CanvasSentence`: literal copy, or copy before a field's value chip. */
export type SimCanvasClause = string | { text?: string; field: string; core?: boolean };

/** The part of Sim's `canvasPresentation` the adapter fills. */
export interface SimCanvasPresentation {
  defaultTitle: string;
  typeLabel?: string;
  operationSubBlockId: string;
  sentences: { byOperation: Record<string, SimCanvasClause[]> };
}

/** Sim's `IntegrationTag`s the three services use: tags outside this list are left out of `BlockMeta`. */
const SIM_TAGS = ['data-warehouse', 'data-analytics', 'email-marketing', 'marketing', 'automation', 'messaging', 'monitoring'] as const;
export type SimIntegrationTag = (typeof SIM_TAGS)[number];
const simTags: ReadonlySet<string> = new Set(SIM_TAGS);
function isSimTag(tag: string): tag is SimIntegrationTag {
  return simTags.has(tag);
}

/** The part of Sim's `BlockMeta` (catalog data, never read by its executor) the adapter fills. */
export interface SimBlockMeta {
  tags: SimIntegrationTag[];
  /** The service's own page (Sim: "link to the vendor from BlockMeta.url"). */
  url?: string;
}

/** Sim's page of an integration: its `defaultIntegrationDocsUrl`. */
const SIM_DOCS = 'https://docs.sim.ai/integrations/';

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

type SourceField = SimBlockSource['fields'][number];

const SUB_BLOCK_TYPES: ReadonlyMap<string, SimSubBlock['type']> = new Map([
  ['dropdown', 'dropdown'],
  ['switch', 'switch'],
  ['long-input', 'long-input'],
  ['code', 'code'],
]);

/** Field types that tune a call rather than carry its content. */
const SETTING_TYPES: ReadonlySet<string> = new Set(['switch', 'dropdown', 'number']);

function subBlockOf(field: SourceField, allOps: readonly string[], blockName: string, byOperation: ReadonlyMap<string, string>, defaultOp: string): SimSubBlock {
  const ops = field.condition?.value ?? allOps;
  // Sim has no number sub-block: a short input whose text the tool converts (`coerceParams`).
  const sub: SimSubBlock = { id: field.id, title: field.title, type: SUB_BLOCK_TYPES.get(field.type) ?? 'short-input' };
  if (sub.type === 'dropdown') sub.options = (field.options ?? []).map(({ id, label }) => ({ id, label }));
  if (sub.type === 'code') {
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
  if (field.password) sub.password = true;
  sub.paramVisibility = field.visibility === 'user-only' ? 'user-only' : 'user-or-llm';
  if (field.description) sub.description = field.description;
  if (field.placeholder) sub.placeholder = field.placeholder;
  const value = field.id === 'operation' ? defaultOp : simDefaultOf(field, ops, byOperation);
  if (value !== undefined) {
    // A dropdown starts on its value as Sim's own blocks do it (`value()`, read when the block is dropped).
    if (sub.type === 'dropdown' && typeof value === 'string') sub.value = () => value;
    else if (field.type === 'number') sub.defaultValue = String(value);
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') sub.defaultValue = value;
    else if (field.type === 'code' && typeof value === 'object' && value !== null) sub.defaultValue = JSON.stringify(value, null, 2);
  }
  // A setting no operation requires that has its value already (a switch, a choice, a number): off the basic card, as in Sim's own blocks.
  if (field.id !== 'operation' && field.requiredFor.length === 0 && value !== undefined && SETTING_TYPES.has(field.type)) sub.mode = 'advanced';
  if (field.requiredFor.length > 0) {
    const always = field.requiredFor.length === ops.length;
    sub.required = always ? true : { field: 'operation', value: [...field.requiredFor] };
  }
  if (field.condition) sub.condition = { field: 'operation', value: [...field.condition.value] };
  return sub;
}

// Sim's block outputs have no `object`: objects are `json`; a type Sim does not know is `any`.
const OUTPUT_TYPES: ReadonlyMap<string, SimValueType> = new Map([
  ['string', 'string'],
  ['number', 'number'],
  ['boolean', 'boolean'],
  ['json', 'json'],
  ['object', 'json'],
  ['array', 'array'],
]);
const INPUT_TYPES: ReadonlyMap<string, SimBlockConfig['inputs'][string]['type']> = new Map([
  ['string', 'string'],
  ['number', 'number'],
  ['boolean', 'boolean'],
]);

/** One flat list of outputs, each with the operations that produce it (none when all do). */
function blockOutputs(source: SimBlockSource): SimBlockConfig['outputs'] {
  const allOps = Object.keys(source.outputs);
  const merged = new Map<string, { type: SimValueType; description?: string; ops: string[] }>();
  for (const [op, outputs] of Object.entries(source.outputs)) {
    for (const [name, o] of Object.entries(outputs)) {
      const type = OUTPUT_TYPES.get(o.type) ?? 'any';
      const entry = merged.get(name);
      if (!entry) {
        merged.set(name, { type, description: o.description, ops: [op] });
        continue;
      }
      entry.ops.push(op);
      if (entry.type !== type) entry.type = 'any';
    }
  }
  const result: SimBlockConfig['outputs'] = {};
  for (const [name, { type, description, ops }] of merged) {
    result[name] = { type, ...(description ? { description } : {}), ...(ops.length < allOps.length ? { condition: { field: 'operation', value: ops } } : {}) };
  }
  return result;
}

/**
 * One card sentence per operation, in the imperative voice Sim's check asks for: the
 * operation's label, then the chip of the field the operation acts on (its noun until filled).
 * That field is the first one the operation requires that is not the block's connection
 * (required by every operation: base URL, credential), not a secret and without a default.
 */
function canvasPresentationOf(source: SimBlockSource, allOps: readonly string[]): SimCanvasPresentation {
  const labels = new Map((source.fields.find((f) => f.id === 'operation')?.options ?? []).map((o) => [o.id, o.label]));
  const byOperation: Record<string, SimCanvasClause[]> = {};
  for (const op of allOps) {
    const label = labels.get(op) ?? op;
    const subject = source.fields.find(
      (f) =>
        f.id !== 'operation' &&
        f.requiredFor.includes(op) &&
        f.requiredFor.length < allOps.length &&
        !f.password &&
        f.default === undefined &&
        (!f.condition || f.condition.value.includes(op)),
    );
    byOperation[op] = subject ? [{ text: label, field: subject.id, core: true }] : [label];
  }
  return { defaultTitle: source.name, typeLabel: source.name, operationSubBlockId: 'operation', sentences: { byOperation } };
}

/** The member of Sim's `IntegrationType` enum whose value is the block's kind. */
function integrationTypeOf<I extends string>(source: SimBlockSource, types: Readonly<Record<string, I>>): I {
  const kind = source.catalog?.kind;
  const member = Object.values(types).find((value) => value === kind);
  if (member === undefined) {
    throw new Error(`block ${source.type}: its catalog kind ${kind === undefined ? '(none)' : `"${kind}"`} is not one of the integrationTypes given (${Object.values(types).join(', ')})`);
  }
  return member;
}

/** A block manifest as Sim's `BlockConfig`: its fields as sub-blocks, its operations as tools. */
export function toSimBlockConfig<E, I extends string = string, M extends string = never>(source: SimBlockSource, options: SimBlockOptions<E, I, M>): SimBlockConfig<E, I, M> {
  const idPrefix = options.idPrefix ?? DEFAULT_SIM_PREFIX;
  const typePrefix = options.blockTypePrefix ?? DEFAULT_SIM_PREFIX;
  const name = (options.name ?? defaultSimBlockName)(source.name);
  const byOperation = new Map(Object.entries(source.tools.byOperation));
  const allOps = [...byOperation.keys()];
  // A new block starts on a read, never on a write: the first read-only operation, else the manifest's default.
  const manifestDefault = source.fields.find((f) => f.id === 'operation')?.default;
  const defaultOp = source.tools.readOnly?.[0] ?? (typeof manifestDefault === 'string' ? manifestDefault : allOps[0]!);
  const { attributes, inner } = iconParts(source.icon);
  const createElement = options.createElement;
  const fields = source.fields;
  const type = typePrefix + source.type;
  const config: SimBlockConfig<E, I, M> = {
    type,
    name,
    description: source.description,
    longDescription: `${source.description} Runs through flowblocks: params are checked (rules between fields included) before any request is sent.`,
    category: options.catalog === 'listed' ? 'tools' : 'blocks',
    bgColor: source.color,
    icon: (props) => createElement('svg', { ...attributes, ...props, dangerouslySetInnerHTML: { __html: inner } }),
    subBlocks: fields.map((field) => subBlockOf(field, allOps, name, byOperation, defaultOp)),
    tools: {
      access: source.tools.access.map((id) => idPrefix + id),
      config: {
        tool: (params) => {
          const op = typeof params.operation === 'string' ? params.operation : defaultOp;
          const id = byOperation.get(op);
          if (!id) throw new Error(`block ${name} has no operation ${op} (known: ${allOps.join(', ')})`);
          return idPrefix + id;
        },
        // The editor's values by field id, to the tool's params by name, for the chosen operation.
        // Sim merges the result over every stored value (`{ ...inputs, ...params(inputs) }`), so
        // each field's id and param is set here, `undefined` when the operation does not show it:
        // another operation's value (`subscribed` of create_contact) must not reach this tool.
        params: (params) => {
          const op = typeof params.operation === 'string' ? params.operation : defaultOp;
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
    inputs: Object.fromEntries(
      Object.entries(source.inputs).map(([id, input]) => [id, { type: INPUT_TYPES.get(input.type) ?? 'json', ...(input.description ? { description: input.description } : {}) }]),
    ),
    outputs: blockOutputs(source),
    canvasPresentation: canvasPresentationOf(source, allOps),
  };
  if (options.integrationTypes) config.integrationType = integrationTypeOf(source, options.integrationTypes);
  if (options.authMode !== undefined) config.authMode = options.authMode;
  const docsLink = options.docsLink ?? 'service';
  if (docsLink === 'service' && source.docsUrl) config.docsLink = source.docsUrl;
  if (docsLink === 'sim') config.docsLink = SIM_DOCS + type;
  return config;
}

/** A block manifest as Sim's `BlockMeta` (for `BLOCK_META_REGISTRY`): its tags and the service's page. */
export function toSimBlockMetaOf(source: SimBlockSource): SimBlockMeta {
  const meta: SimBlockMeta = { tags: (source.catalog?.tags ?? []).filter(isSimTag) };
  if (source.docsUrl) meta.url = source.docsUrl;
  return meta;
}

/** Every manifest as a `BlockConfig` and a `BlockMeta`, keyed by the adapted block type. */
export function toSimBlockMaps<E, I extends string = string, M extends string = never>(
  sources: readonly SimBlockSource[],
  options: SimBlockOptions<E, I, M>,
): { blocks: Record<string, SimBlockConfig<E, I, M>>; meta: Record<string, SimBlockMeta> } {
  const blocks: Record<string, SimBlockConfig<E, I, M>> = {};
  const meta: Record<string, SimBlockMeta> = {};
  for (const source of sources) {
    const config = toSimBlockConfig(source, options);
    blocks[config.type] = config;
    meta[config.type] = toSimBlockMetaOf(source);
  }
  return { blocks, meta };
}
