import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpToolHandlers } from './mcp-tools.js';
import type { AgentToolOptions } from './options.js';
import { packageVersion } from '../../version.js';

export const MCP_SDK_MISSING = 'the MCP server needs the MCP SDK: npm install @modelcontextprotocol/sdk';

/** Loads the optional MCP SDK, with an install hint when it is missing. */
export async function loadMcpSdk() {
  try {
    const [server, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return {
      Server: server.Server,
      ListToolsRequestSchema: types.ListToolsRequestSchema,
      CallToolRequestSchema: types.CallToolRequestSchema,
      CancelledNotificationSchema: types.CancelledNotificationSchema,
    };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') throw new Error(MCP_SDK_MISSING, { cause: error });
    throw error;
  }
}

/** What this server offers, for stdio's SDK server and the HTTP server's own `initialize` alike: tools. */
export const MCP_CAPABILITIES = { tools: {} };

export interface McpServerOptions extends AgentToolOptions {
  /** Name and version the server reports to clients (default: flowblocks and the package's version). */
  name?: string;
  version?: string;
}

/**
 * An MCP server (not yet connected) exposing the tools with their `llm` schemas, hints and
 * descriptions; credentials come from `settings`, never from the model. Connect it to a
 * transport: `StdioServerTransport` for `flowblocks mcp`, `InMemoryTransport` in tests.
 */
export async function createMcpServer(options: McpServerOptions = {}): Promise<Server> {
  const sdk = await loadMcpSdk();
  const handlers = createMcpToolHandlers(options);
  const server = new sdk.Server(
    { name: options.name ?? 'flowblocks', version: options.version ?? packageVersion() },
    { capabilities: MCP_CAPABILITIES },
  );
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => handlers.list());
  server.setRequestHandler(sdk.CallToolRequestSchema, (request, extra) =>
    handlers.call(request.params.name, request.params.arguments, extra.signal),
  );
  return server;
}
