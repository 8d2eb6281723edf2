import { ownValue } from '../../../harness/dictionary.js';

/**
 * References inside block params: `{{inputs.email}}`, `{{<blockId>.<output path>}}`,
 * `{{env.TINYBIRD_TOKEN}}`, `{{now}}`. A string that is only a reference takes the value
 * as it is (a number stays a number); a reference inside text is interpolated. An object
 * `{"$json": …}` becomes its JSON text once resolved, for params that take JSON text.
 */
export interface ReferenceScope {
  inputs: Record<string, unknown>;
  env: Record<string, string>;
  /** Outputs of the blocks run so far, by block id. */
  blocks: Map<string, unknown>;
  now: string;
}

const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/;
const INLINE = /\{\{\s*([\w.-]+)\s*\}\}/g;

export class ReferenceError extends Error {}

function lookup(path: string, scope: ReferenceScope): unknown {
  if (path === 'now') return scope.now;
  const [head, ...rest] = path.split('.');
  let current: unknown = head === 'inputs' ? scope.inputs : head === 'env' ? scope.env : scope.blocks.get(head!);
  if (current === undefined && head !== 'inputs') throw new ReferenceError(`{{${path}}} names no input, env value or earlier block`);
  for (const key of rest) {
    if (current === null || typeof current !== 'object') return undefined;
    // Own keys only: `{{inputs.constructor}}` is an input the caller may not have sent, never Object.
    current = ownValue(current, key);
  }
  return current;
}

export function resolveReferences(value: unknown, scope: ReferenceScope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(whole[1]!, scope);
    return value.replace(INLINE, (_, path: string) => {
      const found = lookup(path, scope);
      return found === undefined || found === null ? '' : typeof found === 'object' ? JSON.stringify(found) : String(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => resolveReferences(item, scope));
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, '$json') && Object.keys(record).length === 1) return JSON.stringify(resolveReferences(record.$json, scope));
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, resolveReferences(v, scope)]));
  }
  return value;
}
