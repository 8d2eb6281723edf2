/**
 * Derives test/fixtures/loops-openapi-facts.json from the vendor's OpenAPI file: for each
 * operation the Loops tools call, its method, path, query and header parameters, and the
 * body fields with their types and which are required. The tools' requests are checked
 * against it in test/tools/loops/openapi.test.ts.
 *
 *   npx tsx scripts/loops-openapi-facts.ts [path/to/loops-openapi.yaml]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';

/** The operations the tools call, by the vendor's operationId. */
export const OPERATION_IDS = [
  'testApiKey',
  'createContact',
  'updateContact',
  'findContact',
  'deleteContact',
  'getContactSuppression',
  'removeContactSuppression',
  'createContactProperty',
  'listContactProperties',
  'sendEvent',
  'sendTransactionalEmail',
  'listMailingLists',
  'listPublishedTransactionalEmails',
  'listTransactionalEmails',
  'getTransactionalEmail',
  'listEventPatterns',
  'getEventPatternByName',
  'getEventPattern',
  'listDedicatedSendingIps',
] as const;

export const DEFAULT_SOURCE = join(import.meta.dirname, '..', '..', 'shared', 'reference', 'loops-openapi.yaml');
export const FIXTURE = join(import.meta.dirname, '..', 'test', 'fixtures', 'loops-openapi-facts.json');

/** A value's schema, reduced to what a request check needs. */
export interface ValueFact {
  type: string[];
  enum?: unknown[];
  maxLength?: number;
  /** Objects: their named fields, which must be present, and what other keys may hold. */
  fields?: Record<string, ValueFact>;
  required?: string[];
  /** Each inner list is one way to satisfy the object (`anyOf` of `required`). */
  requiredOneOf?: string[][];
  /** Types allowed for keys not named in `fields`; false when none are. */
  additional?: string[] | false;
  /** Arrays: the schema of each item. */
  items?: ValueFact;
}

export interface ParameterFact {
  required: boolean;
  type: string[];
  maxLength?: number;
}

export interface OperationFact {
  method: string;
  path: string;
  deprecated: boolean;
  /** How the key goes: the security scheme's HTTP scheme. */
  auth: string;
  query: Record<string, ParameterFact>;
  headers: Record<string, ParameterFact>;
  body?: { required: boolean; schema: ValueFact };
  statuses: number[];
}

export interface LoopsOpenApiFacts {
  source: { title: string; version: string; server: string };
  operations: Record<string, OperationFact>;
}

type Schema = Record<string, unknown>;
type Doc = { info: Schema; servers: { url: string }[]; paths: Record<string, Record<string, Schema>>; components: Schema };

function resolve(doc: Doc, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((node, key) => (node as Schema)[key], doc);
  return resolve(doc, target as Schema);
}

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type.map(String);
  if (typeof type === 'string') return [type];
  if (schema.properties || schema.additionalProperties !== undefined) return ['object'];
  return [];
}

function additionalOf(doc: Doc, value: unknown): string[] | false | undefined {
  if (value === undefined || value === true) return undefined;
  if (value === false) return false;
  const schema = resolve(doc, value as Schema);
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  return branches ? branches.flatMap((branch) => typesOf(resolve(doc, branch))) : typesOf(schema);
}

/** A schema as a ValueFact: references followed, `allOf` merged, `anyOf` of `required` kept. */
export function valueFact(doc: Doc, raw: Schema): ValueFact {
  const schema = resolve(doc, raw);
  const parts = [schema, ...((schema.allOf as Schema[] | undefined) ?? []).map((part) => resolve(doc, part))];
  const fact: ValueFact = { type: [] };
  const fields: Record<string, ValueFact> = {};
  const required = new Set<string>();
  for (const part of parts) {
    for (const type of typesOf(part)) if (!fact.type.includes(type)) fact.type.push(type);
    // A later part restates a field with a fuller description, not another type: the first one stands.
    for (const [name, field] of Object.entries((part.properties as Record<string, Schema>) ?? {})) fields[name] ??= valueFact(doc, field);
    for (const name of (part.required as string[] | undefined) ?? []) required.add(name);
    const oneOf = (part.anyOf as Schema[] | undefined)?.filter((branch) => Array.isArray(branch.required));
    if (oneOf?.length) fact.requiredOneOf = oneOf.map((branch) => branch.required as string[]);
    const additional = additionalOf(doc, part.additionalProperties);
    if (additional !== undefined) fact.additional = additional;
    if (Array.isArray(part.enum)) fact.enum = part.enum;
    if (typeof part.maxLength === 'number') fact.maxLength = part.maxLength;
    if (part.items) fact.items = valueFact(doc, part.items as Schema);
  }
  if (!fact.type.length && Object.keys(fields).length) fact.type.push('object');
  if (Object.keys(fields).length) fact.fields = fields;
  if (required.size) fact.required = [...required];
  return fact;
}

function parameters(doc: Doc, op: Schema, where: 'query' | 'header'): Record<string, ParameterFact> {
  const out: Record<string, ParameterFact> = {};
  for (const raw of (op.parameters as Schema[] | undefined) ?? []) {
    const param = resolve(doc, raw);
    if (param.in !== where) continue;
    const schema = resolve(doc, (param.schema as Schema) ?? {});
    const fact: ParameterFact = { required: param.required === true, type: typesOf(schema) };
    if (typeof schema.maxLength === 'number') fact.maxLength = schema.maxLength;
    out[String(param.name)] = fact;
  }
  return out;
}

export function deriveFacts(yamlText: string): LoopsOpenApiFacts {
  const doc = parse(yamlText) as Doc;
  const schemes = ((doc.components.securitySchemes ?? {}) as Record<string, Schema>);
  const operations: Record<string, OperationFact> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const id = op.operationId as string | undefined;
      if (!id || !(OPERATION_IDS as readonly string[]).includes(id)) continue;
      const security = ((op.security as Record<string, unknown>[] | undefined) ?? [{}])[0] ?? {};
      const scheme = schemes[Object.keys(security)[0] ?? ''];
      const fact: OperationFact = {
        method: method.toUpperCase(),
        path,
        deprecated: op.deprecated === true,
        auth: scheme ? `${String(scheme.type)}/${String(scheme.scheme)}` : 'none',
        query: parameters(doc, op, 'query'),
        headers: parameters(doc, op, 'header'),
        statuses: Object.keys((op.responses as Schema) ?? {}).map(Number).sort((a, b) => a - b),
      };
      const body = op.requestBody as Schema | undefined;
      const json = (body?.content as Record<string, Schema> | undefined)?.['application/json'];
      if (json) fact.body = { required: body?.required === true, schema: valueFact(doc, json.schema as Schema) };
      operations[id] = fact;
    }
  }
  const missing = OPERATION_IDS.filter((id) => !operations[id]);
  if (missing.length) throw new Error(`operations not in the OpenAPI file: ${missing.join(', ')}`);
  // Keyed in OPERATION_IDS order, so the fixture reads (and diffs) the same every time.
  const ordered = Object.fromEntries(OPERATION_IDS.map((id) => [id, operations[id]!]));
  return {
    source: { title: String(doc.info.title), version: String(doc.info.version), server: doc.servers[0]!.url },
    operations: ordered,
  };
}

export function renderFacts(facts: LoopsOpenApiFacts): string {
  return `${JSON.stringify(facts, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const source = process.argv[2] ?? DEFAULT_SOURCE;
  writeFileSync(FIXTURE, renderFacts(deriveFacts(readFileSync(source, 'utf8'))));
  console.log(`wrote ${FIXTURE} from ${source}`);
}
