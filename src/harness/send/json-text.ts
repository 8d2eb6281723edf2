/**
 * A request body as JSON text. A value JSON cannot hold (a BigInt, a circular reference, a
 * `toJSON` that throws) is the caller's params, not the service's answer: `invalid_params`,
 * naming where in the body it sits.
 */
import { failure, thrownMessage, type ToolFailure } from '../errors.js';

export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw notJson(value, error);
  }
}

function notJson(value: unknown, error: unknown): ToolFailure {
  let found: { path: string; reason: string } | undefined;
  try {
    found = firstUnsendable(value, '', new Set());
  } catch {
    // Nested past the stack (JSON.stringify's own RangeError says so): the thrown message is the reason.
  }
  const path = found?.path ?? '';
  const reason = found?.reason ?? thrownMessage(error);
  const message = `cannot be sent as JSON: ${reason}`;
  return failure('invalid_params', `invalid params: the request body ${path ? `at ${path} ` : ''}${message}`, { issues: [{ path, message }] });
}

/** The first value, depth first, that JSON.stringify throws on. */
function firstUnsendable(value: unknown, path: string, ancestors: Set<object>): { path: string; reason: string } | undefined {
  if (typeof value === 'bigint') return { path, reason: 'a BigInt is no JSON number (send it as a string or a number)' };
  if (value === null || typeof value !== 'object') return undefined;
  if (ancestors.has(value)) return { path, reason: 'it refers back to an object that holds it (a circular reference)' };
  ancestors.add(value);
  for (const [key, item] of Object.entries(value)) {
    const found = firstUnsendable(item, path ? `${path}.${key}` : key, ancestors);
    if (found) return found;
  }
  ancestors.delete(value);
  return undefined;
}
