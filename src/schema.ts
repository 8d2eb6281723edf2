import { z } from 'zod';
import { dictionaryOf, ownValue } from './harness/dictionary.js';
import { fieldMeta, paramNames } from './harness/define/fields.js';
import type { AnyTool } from './harness/types.js';

export type Audience = 'llm' | 'full';
export type JsonSchema = Record<string, unknown>;

const cache = new WeakMap<AnyTool, Partial<Record<Audience, JsonSchema>>>();

/**
 * JSON Schema of a tool's params (zod 4's native `z.toJSONSchema`, input side, so defaults
 * are optional). The `llm` view leaves out every `user-only` param.
 */
export function paramsJsonSchema(tool: AnyTool, audience: Audience = 'full'): JsonSchema {
  const entry = cache.get(tool) ?? {};
  const cached = entry[audience];
  if (cached) return cached;
  const schema = z.toJSONSchema(tool.params, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  if (audience === 'llm') {
    const hidden = new Set(paramNames(tool.params, (meta) => meta.visibility === 'user-only'));
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    schema.properties = Object.fromEntries(Object.entries(properties).filter(([name]) => !hidden.has(name)));
    const required = ((schema.required ?? []) as string[]).filter((name) => !hidden.has(name));
    if (required.length) schema.required = required;
    else delete schema.required;
  }
  entry[audience] = schema;
  cache.set(tool, entry);
  return schema;
}

/**
 * Params for a call a model asked for: the model's values for `user-only` params are
 * dropped, and the user's configured values fill them.
 */
export function mergeLlmParams(
  tool: AnyTool,
  llmArgs: Record<string, unknown>,
  userValues: Record<string, unknown>,
): Record<string, unknown> {
  const shape = (tool.params as z.ZodObject).shape as Record<string, z.ZodType> | undefined;
  // Argument names are the model's: `constructor` or `__proto__` must stay an (unknown) argument.
  const merged = dictionaryOf<unknown>();
  for (const [name, value] of Object.entries(llmArgs)) {
    const field = shape ? (ownValue(shape, name) as z.ZodType | undefined) : undefined;
    if (!field || fieldMeta(field).visibility !== 'user-only') merged[name] = value;
  }
  return Object.assign(merged, userValues);
}
