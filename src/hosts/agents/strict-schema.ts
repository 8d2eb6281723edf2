import { dictionaryOf } from '../../harness/dictionary.js';
import type { AnyTool } from '../../harness/types.js';
import { paramsJsonSchema, type JsonSchema } from '../../schema.js';

/**
 * The strict-mode view of a tool's `llm` schema, for OpenAI's and Anthropic's strict tool
 * use: every property required (optional ones as a union with null), `additionalProperties:
 * false` on every object, and only the keywords both accept (type, properties, required,
 * additionalProperties, items, enum, const, anyOf, description). The constraints they refuse
 * (lengths, bounds, patterns, formats, defaults) move into the description, and the executor
 * still checks them with the tool's zod schema. Shapes strict mode cannot say are re-encoded,
 * and `decode` turns a strict call back into the tool's params:
 * - a map (`additionalProperties: <schema>`) becomes a list of `{key, value}` pairs;
 * - a value of any type becomes JSON text;
 * - null for an optional property becomes absent, so the tool's default applies.
 */
export interface StrictView {
  schema: JsonSchema;
  decode(args: unknown): unknown;
}

type Node = Record<string, unknown>;
type Decode = (value: unknown) => unknown;
type WireType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

interface Converted {
  schema: Node;
  decode: Decode;
  /** The JSON types a model's value for this node can have, to pick an anyOf branch when decoding. */
  wire: WireType[];
}

const identity: Decode = (value) => value;
const cache = new WeakMap<AnyTool, StrictView>();

export function strictView(tool: AnyTool): StrictView {
  let view = cache.get(tool);
  if (!view) {
    const { schema, decode } = convert(paramsJsonSchema(tool, 'llm') as Node);
    view = { schema, decode };
    cache.set(tool, view);
  }
  return view;
}

/** The constraints strict mode refuses, as words for the description. */
function constraintWords(node: Node): string[] {
  const words: string[] = [];
  // zod spells "any safe integer" as a bound; it says nothing to a model.
  const bound = (value: unknown) => (typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER ? undefined : value);
  const range = (rawLow: unknown, rawHigh: unknown, unit: string) => {
    const [low, high] = [bound(rawLow), bound(rawHigh)];
    if (low !== undefined && high !== undefined) words.push(`${unit}${String(low)} to ${String(high)}`);
    else if (low !== undefined) words.push(`${unit}at least ${String(low)}`);
    else if (high !== undefined) words.push(`${unit}at most ${String(high)}`);
  };
  if (node.format !== undefined) words.push(`format ${String(node.format)}`);
  else if (typeof node.pattern === 'string' && node.pattern.length <= 60) words.push(`pattern ${node.pattern}`);
  range(node.minLength, node.maxLength, 'length ');
  range(node.minItems, node.maxItems, 'items ');
  range(node.minimum, node.maximum, '');
  if (node.exclusiveMinimum !== undefined) words.push(`greater than ${String(node.exclusiveMinimum)}`);
  if (node.exclusiveMaximum !== undefined) words.push(`less than ${String(node.exclusiveMaximum)}`);
  if (node.default !== undefined) words.push(`null means the default, ${JSON.stringify(node.default)}`);
  return words;
}

function describe(node: Node, extra: string[] = []): Node {
  const words = [...constraintWords(node), ...extra];
  const base = typeof node.description === 'string' ? node.description : '';
  const text = words.length ? `${base}${base ? ' ' : ''}(${words.join('; ')})` : base;
  return text ? { description: text } : {};
}

const isAny = (node: Node) => node.type === undefined && node.anyOf === undefined && node.enum === undefined && node.const === undefined;

function convert(node: Node): Converted {
  if (Array.isArray(node.anyOf)) return convertAnyOf(node, node.anyOf as Node[]);
  if (Array.isArray(node.type)) return convertAnyOf(node, (node.type as string[]).map((type) => ({ type })));
  if (isAny(node)) return jsonText(node, 'any JSON value, as JSON text');
  if (node.type === 'object') {
    const values = node.additionalProperties;
    if (node.properties === undefined && values && typeof values === 'object') return convertMap(node, values as Node);
    return convertObject(node);
  }
  if (node.type === 'array') {
    const items = convert((node.items ?? {}) as Node);
    return {
      schema: { type: 'array', ...describe(node), items: items.schema },
      decode: (value) => (Array.isArray(value) ? value.map(items.decode) : value),
      wire: ['array'],
    };
  }
  const schema: Node = { type: node.type, ...describe(node) };
  if (node.enum !== undefined) schema.enum = node.enum;
  if (node.const !== undefined) schema.const = node.const;
  return { schema, decode: identity, wire: [node.type === 'integer' ? 'number' : (node.type as WireType)] };
}

function convertObject(node: Node): Converted {
  const properties = (node.properties ?? {}) as Record<string, Node>;
  const required = new Set((node.required ?? []) as string[]);
  const out: Record<string, Node> = {};
  const decoders = new Map<string, { decode: Decode; nullIsAbsent: boolean }>();
  for (const [name, property] of Object.entries(properties)) {
    const converted = convert(property);
    const nullable = converted.wire.includes('null');
    if (required.has(name) || nullable) {
      out[name] = converted.schema;
    } else {
      const { description, ...rest } = converted.schema;
      out[name] = { anyOf: [rest, { type: 'null' }], ...(description === undefined ? {} : { description }) };
    }
    decoders.set(name, { decode: converted.decode, nullIsAbsent: !required.has(name) && !nullable });
  }
  return {
    schema: { type: 'object', ...describe(node), properties: out, required: Object.keys(out), additionalProperties: false },
    decode: (value) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
      // The names are the model's: a dictionary keeps `__proto__` an argument like any other.
      const params = dictionaryOf<unknown>();
      for (const [name, field] of Object.entries(value)) {
        const decoder = decoders.get(name);
        // Not in the schema (which strict mode holds the model to): dropped, as the engine adapters drop an editor's other fields.
        if (!decoder) continue;
        if (!(field === null && decoder.nullIsAbsent)) params[name] = decoder.decode(field);
      }
      return params;
    },
    wire: ['object'],
  };
}

/** A map as `{key, value}` pairs (strict mode has no open-ended objects); any-typed maps as JSON text. */
function convertMap(node: Node, values: Node): Converted {
  if (isAny(values)) return jsonText(node, 'a JSON object, as JSON text');
  const value = convert(values);
  const pair = { type: 'object', properties: { key: { type: 'string' }, value: value.schema }, required: ['key', 'value'], additionalProperties: false };
  return {
    schema: { type: 'array', ...describe(node, ['as a list of {key, value} pairs']), items: pair },
    decode: (list) =>
      Array.isArray(list)
        ? Object.fromEntries(list.map((entry: { key?: unknown; value?: unknown }) => [String(entry?.key), value.decode(entry?.value)]))
        : list,
    wire: ['array'],
  };
}

function jsonText(node: Node, what: string): Converted {
  return {
    schema: { type: 'string', ...describe(node, [what]) },
    decode: (value) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value; // the tool's own check then says what was expected
      }
    },
    wire: ['string'],
  };
}

/** A union inside a union is spelled as one. */
const branchSchemas = ({ schema }: Converted): Node[] =>
  Object.keys(schema).length === 1 && Array.isArray(schema.anyOf) ? (schema.anyOf as Node[]) : [schema];

function convertAnyOf(node: Node, branches: Node[]): Converted {
  // Nested unions flatten into one; each branch keeps its own decoder, chosen by the value's JSON type.
  const flat = branches.flatMap((branch) => (Array.isArray(branch.anyOf) && branch.description === undefined ? (branch.anyOf as Node[]) : [branch]));
  const seen = new Set<string>();
  // Branches that differed only in refused keywords (a date-time or a date) become one.
  const converted = flat.map(convert).filter((branch) => {
    const key = JSON.stringify({ ...branch.schema, description: undefined });
    return !seen.has(key) && Boolean(seen.add(key));
  });
  if (converted.length === 1) {
    const [only] = converted as [Converted];
    const { description: _inner, ...schema } = only.schema;
    return { ...only, schema: { ...schema, ...describe(node) } };
  }
  const wireOf = (value: unknown): WireType =>
    value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as WireType);
  return {
    schema: { ...describe(node), anyOf: converted.flatMap(branchSchemas) },
    decode: (value) => (converted.find((branch) => branch.wire.includes(wireOf(value)))?.decode ?? identity)(value),
    wire: converted.flatMap((branch) => branch.wire),
  };
}
