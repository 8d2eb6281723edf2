import { z } from 'zod';

/**
 * Per-param metadata beside the zod schema, so a param is declared once and the agent
 * view, the editor field and the redaction all read it from there.
 */
export interface FieldMeta {
  /** `user-only` params are never shown to a model, and a model's value for them is dropped. */
  visibility: 'user-only' | 'user-or-llm';
  /** A credential: redacted from every result, error and log line. */
  secret?: boolean;
  /** Editor hint. */
  ui?: 'password' | 'code' | 'json' | 'long-text';
  /** Language of a `code` field. */
  language?: 'sql' | 'json' | 'ndjson';
  placeholder?: string;
}

export const fieldRegistry = z.registry<FieldMeta>();

function annotate<T extends z.ZodType>(schema: T, meta: FieldMeta): T {
  fieldRegistry.add(schema, meta);
  return schema;
}

/** A credential (token, API key): user-only, redacted, a password field in the editor. */
export function secretParam<T extends z.ZodType>(schema: T): T {
  return annotate(schema, { visibility: 'user-only', secret: true, ui: 'password' });
}

/** A user-only param that is not a secret (a base URL): hidden from models, not redacted. */
export function userOnlyParam<T extends z.ZodType>(schema: T): T {
  return annotate(schema, { visibility: 'user-only' });
}

/** An editor hint on a param a model may fill. */
export function uiParam<T extends z.ZodType>(schema: T, hint: Omit<FieldMeta, 'visibility'>): T {
  return annotate(schema, { visibility: 'user-or-llm', ...hint });
}

export function fieldMeta(schema: z.ZodType): FieldMeta {
  return fieldRegistry.get(schema) ?? { visibility: 'user-or-llm' };
}

/** The object shape of a tool's params, through refinements and pipes. */
export function paramShape(schema: z.ZodType): Record<string, z.ZodType> {
  let current: z.ZodType = schema;
  // Refinements keep the object as the schema itself in zod 4; pipes wrap it.
  while (current instanceof z.ZodPipe) current = current.in as z.ZodType;
  if (current instanceof z.ZodObject) return current.shape as Record<string, z.ZodType>;
  throw new Error('tool params must be a zod object');
}

/** Names of the params whose metadata matches `test`. */
export function paramNames(schema: z.ZodType, test: (meta: FieldMeta) => boolean): string[] {
  return Object.entries(paramShape(schema))
    .filter(([, field]) => test(fieldMeta(field)))
    .map(([name]) => name);
}
