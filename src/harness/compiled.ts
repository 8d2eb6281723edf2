import { z } from 'zod';

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema as zod's `z.compile` makes it: one generated function instead of a walk over
 * the schema's nodes, with the same results and the same issues (a failing input is parsed
 * again by the original schema for its issues). Compiled on first use, never at import, and
 * kept per schema; a schema zod cannot compile comes back as it is. The call path parses
 * each call's params, answer and output with it (#21).
 */
export function compiled<S extends z.ZodType>(schema: S): S {
  let fast = compiledSchemas.get(schema);
  if (!fast) {
    fast = z.compile(schema);
    compiledSchemas.set(schema, fast);
  }
  return fast as S;
}
