import { readFile } from 'node:fs/promises';
import { dictionaryOf } from '../../harness/dictionary.js';
import { endpointIssues } from '../../harness/run/endpoints.js';
import { parseUserJson } from '../user-json/parse-user-json.js';

/** Reads `--params`, `--params-file` (or `-` for stdin) and `--param key=value` into one object. */
export async function collectParams(
  values: { params?: string; 'params-file'?: string; param?: string[] },
  stdin: () => Promise<string>,
  schema?: { properties?: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  // Param names are the user's: a dictionary keeps `--param __proto__=…` a param.
  const params = dictionaryOf<unknown>();
  const merge = (text: string, from: string) => {
    const parsed = parseUserJson(text, from);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${from} must be a JSON object`);
    Object.assign(params, parsed);
  };
  if (values['params-file'] !== undefined) {
    const file = values['params-file'];
    merge(file === '-' ? await stdin() : await readFile(file, 'utf8'), `--params-file ${file}`);
  }
  if (values.params !== undefined) merge(values.params, '--params');
  for (const pair of values.param ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--param takes key=value, got ${JSON.stringify(pair)}`);
    const raw = pair.slice(eq + 1);
    const key = pair.slice(0, eq);
    // A param the schema declares a string is text as typed (`userId=42` stays "42"); for the
    // others, values that read as JSON (numbers, booleans, objects) are taken as such.
    let value: unknown = raw;
    if (!isStringParam(schema, key)) {
      try {
        value = JSON.parse(raw);
      } catch {
        /* plain text */
      }
    }
    params[key] = value;
  }
  return params;
}

/** Whether the tool's JSON Schema declares only text for this param (a string, or an enum or const of strings). */
function isStringParam(schema: { properties?: Record<string, unknown> } | undefined, key: string): boolean {
  const prop = schema?.properties && Object.hasOwn(schema.properties, key) ? (schema.properties[key] as Record<string, unknown>) : undefined;
  if (!prop) return false;
  const texts = (s: Record<string, unknown>): boolean =>
    s.type === 'string' ||
    (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) ||
    typeof s.const === 'string' ||
    (Array.isArray(s.anyOf) && s.anyOf.every((branch) => texts(branch as Record<string, unknown>)));
  return texts(prop);
}

/** `--endpoint loops=http://127.0.0.1:4100/loops/api/v1` → `{ loops: '…' }`. */
export function collectEndpoints(pairs: string[] | undefined, services: readonly string[]): Record<string, string> | undefined {
  if (!pairs?.length) return undefined;
  const endpoints = dictionaryOf<string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--endpoint takes service=url, got ${JSON.stringify(pair)}`);
    endpoints[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const issues = endpointIssues(endpoints, services);
  if (issues.length) throw new UsageError(`--endpoint ${issues.map((i) => `${i.path.slice('endpoints.'.length)}: ${i.message}`).join('; ')}`);
  return endpoints;
}

/** A mistake in the command line: exit code 2 with the usage. */
export class UsageError extends Error {}

/** A mistyped name (a command, a tool id): its message says what was meant; the whole help after it would bury that. */
export class UnknownNameError extends UsageError {}

/** A port option: `fallback` when absent, else a whole number from 0 (a free port) to 65535. */
export function portOf(value: string | undefined, fallback: number, flag: string): number {
  const port = value === undefined ? fallback : Number(value);
  if (value?.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`${flag} takes a port number from 0 to 65535 (0 picks a free one), got ${JSON.stringify(value)}`);
  }
  return port;
}
