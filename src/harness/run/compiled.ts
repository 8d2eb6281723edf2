import { z } from 'zod';

type Compile = <S extends z.ZodType>(schema: S) => S;

/**
 * zod's `z.compile`, when the zod installed has it (4.5 and later). A host decides which zod
 * we get (Sim forces 4.3.6 on every package with an `overrides`), so it is looked up, not
 * assumed: without it every schema is parsed as written, with the same results.
 */
const compile = (z as { compile?: Compile }).compile;

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema as zod's `z.compile` makes it: one generated function instead of a walk over
 * the schema's nodes, with the same results and the same issues (a failing input is parsed
 * again by the original schema for its issues). Compiled on first use, never at import, and
 * kept per schema; a schema zod cannot compile, or any schema when the zod installed has no
 * `z.compile`, comes back as it is. The call path parses each call's params, answer and
 * output with it.
 */
export function compiled<S extends z.ZodType>(schema: S): S {
  let fast = compiledSchemas.get(schema);
  if (!fast) {
    fast = schema;
    try {
      if (compile) fast = compile(schema);
    } catch {
      // Compiling is an optimisation: a schema it fails on is parsed as written.
    }
    compiledSchemas.set(schema, fast);
  }
  return fast as S;
}

/**
 * `safeParse` through the compiled form; when that form throws, the schema as written parses
 * the value instead and is kept for the schema's later calls, so a defect of the compiled
 * path (a zod whose generated code needs what it lacks) costs speed, never a result. A throw
 * of the schema as written is left to the caller: it is the value's (a getter) or zod's.
 */
export function safeParseCompiled<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const fast = compiled(schema);
  try {
    return fast.safeParse(value);
  } catch (error) {
    // Read once: a value whose getter throws is not read again by the same schema.
    if (fast === schema) throw error;
    const result = schema.safeParse(value);
    // Kept only when the schema as written managed: a value that throws whatever parses it
    // (a hostile getter) does not cost the tool its compiled form.
    compiledSchemas.set(schema, schema);
    return result;
  }
}
