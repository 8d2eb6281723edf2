import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MCP_CAPABILITIES } from '../mcp-server.js';

/**
 * The `initialize` result, serialized, as the SDK's `Server` answers it: the client's protocol
 * version when the SDK supports it, else the latest; this server's capabilities and name.
 */
export function initializeResult(info: { name: string; version: string }, requested: string): string {
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
  return JSON.stringify({ protocolVersion, capabilities: MCP_CAPABILITIES, serverInfo: info });
}
