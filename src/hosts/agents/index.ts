/**
 * `flowblocks/agents`: the tools for agents. Function-calling definitions for OpenAI and
 * Anthropic (plain and strict), an AI SDK tool set, an MCP server, and the executor behind
 * them all: credentials from the user's settings, never from the model; bounded results.
 * The AI SDK and the MCP SDK are optional peers, loaded only by the functions that need them;
 * the MCP server runs over stdio or, stateless, over Streamable HTTP (`createMcpHttpHandler`).
 */
export { createToolExecutor, type AgentToolResult, type AgentToolError, type ToolExecutor, type ToolCallOptions } from './executor.js';
export {
  agentDefinition,
  agentDefinitions,
  anthropicTools,
  openAiChatTools,
  openAiResponsesTools,
  type AgentToolDefinition,
} from './definitions.js';
export { toAiSdkTools, type AiSdkTool, type AiSdkToolOptions, type JsonSchemaWrapper } from './ai-sdk.js';
export { strictView, type StrictView } from './strict-schema.js';
export { agentDescription } from './describe.js';
export { selectTools, serviceNames, type AgentToolOptions, type ServiceId, type ServiceSettings } from './options.js';
export { settingsFromEnv, envSettings, ENV_SETTINGS } from './env-settings.js';
export { createMcpToolHandlers, toMcpResult, type McpToolHandlers, type McpTool, type McpCallResult } from './mcp-tools.js';
export { createMcpServer, MCP_SDK_MISSING, type McpServerOptions } from './mcp-server.js';
export type { Truncation } from './shape-result.js';
export { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from './mcp-http/handler.js';
export { serveMcpHttp, type McpHttpServer, type ServeMcpHttpOptions } from './mcp-http/serve.js';
export { credentialHeaders, type CredentialHeader } from './mcp-http/credential-headers.js';
export { DEFAULT_MAX_RESULT_BYTES } from './bound-result.js';
