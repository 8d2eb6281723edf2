import type { JsonSchema } from '../../schema.js';
import { agentDefinitions } from './definitions.js';
import { createToolExecutor, type AgentToolResult } from './executor.js';
import type { AgentToolOptions } from './options.js';

/** The AI SDK's `jsonSchema` helper, or anything that wraps a JSON Schema for `inputSchema`. */
export type JsonSchemaWrapper<S> = (schema: JsonSchema) => S;

/** An AI SDK tool (`tool({ description, inputSchema, execute })`), typed without importing `ai`. */
export interface AiSdkTool<S> {
  description: string;
  inputSchema: S;
  strict?: boolean;
  execute(input: unknown, options: { abortSignal?: AbortSignal }): Promise<AgentToolResult>;
}

export interface AiSdkToolOptions<S> extends AgentToolOptions {
  /** `jsonSchema` from `ai`; imported from `ai` when left out (it is an optional peer). */
  jsonSchema?: JsonSchemaWrapper<S>;
}

async function loadJsonSchema(): Promise<JsonSchemaWrapper<unknown>> {
  try {
    const ai = (await import('ai')) as { jsonSchema: JsonSchemaWrapper<unknown> };
    return ai.jsonSchema;
  } catch {
    throw new Error('toAiSdkTools needs the Vercel AI SDK: npm install ai (or pass jsonSchema from it)');
  }
}

/**
 * The tools as an AI SDK tool set for `generateText({ tools })`: the `llm` schemas (or the
 * strict ones with `strict: true`), executed through the harness with the configured
 * credentials. A model's values for credentials are dropped; results are bounded.
 */
// `S` defaults to any: with `ai` loaded lazily its Schema type cannot be named here, and the
// tool set must still be assignable to the AI SDK's ToolSet.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function toAiSdkTools<S = any>(options: AiSdkToolOptions<S> = {}): Promise<Record<string, AiSdkTool<S>>> {
  const wrap = (options.jsonSchema ?? (await loadJsonSchema())) as JsonSchemaWrapper<S>;
  const executor = createToolExecutor(options);
  const strict = options.strict ?? false;
  return Object.fromEntries(
    agentDefinitions(options).map((definition) => [
      definition.name,
      {
        description: definition.description,
        inputSchema: wrap(definition.parameters),
        ...(strict ? { strict: true } : {}),
        execute: (input: unknown, call: { abortSignal?: AbortSignal }) =>
          executor.execute(definition.name, input, { strict, ...(call?.abortSignal ? { signal: call.abortSignal } : {}) }),
      },
    ]),
  );
}
