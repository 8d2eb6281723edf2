import type { AnyTool } from '../../harness/types.js';
import { paramsJsonSchema, type JsonSchema } from '../../schema.js';
import { agentDescription } from './describe.js';
import { DEFAULT_MAX_ITEMS, DEFAULT_MAX_ROWS, selectTools, type AgentToolOptions } from './options.js';
import { strictView } from './strict-schema.js';

/** One tool as a model sees it: name, description and the params it may fill. */
export interface AgentToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** The `llm` schema without `$schema`, which function-calling APIs do not expect. */
function llmSchema(tool: AnyTool): JsonSchema {
  const { $schema: _dialect, ...schema } = paramsJsonSchema(tool, 'llm');
  return schema;
}

export function agentDefinition(tool: AnyTool, options: AgentToolOptions = {}): AgentToolDefinition {
  const strict = options.strict ?? false;
  return {
    name: tool.id,
    description: agentDescription(tool, { maxItems: options.maxItems ?? DEFAULT_MAX_ITEMS, maxRows: options.maxRows ?? DEFAULT_MAX_ROWS }),
    parameters: strict ? strictView(tool).schema : llmSchema(tool),
    strict,
  };
}

export const agentDefinitions = (options: AgentToolOptions = {}): AgentToolDefinition[] =>
  selectTools(options).map((tool) => agentDefinition(tool, options));

/** OpenAI Chat Completions `tools` entries. */
export function openAiChatTools(options: AgentToolOptions = {}) {
  return agentDefinitions(options).map(({ name, description, parameters, strict }) => ({
    type: 'function' as const,
    function: { name, description, parameters, strict },
  }));
}

/** OpenAI Responses API `tools` entries. */
export function openAiResponsesTools(options: AgentToolOptions = {}) {
  return agentDefinitions(options).map(({ name, description, parameters, strict }) => ({
    type: 'function' as const,
    name,
    description,
    parameters,
    strict,
  }));
}

/** Anthropic Messages API `tools` entries; `strict: true` only when asked for. */
export function anthropicTools(options: AgentToolOptions = {}) {
  return agentDefinitions(options).map(({ name, description, parameters, strict }) => ({
    name,
    description,
    input_schema: parameters,
    ...(strict ? { strict: true } : {}),
  }));
}
