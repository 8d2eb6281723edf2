import { ENV_SETTINGS } from '../../hosts/agents/env-settings.js';

/**
 * How a desktop agent starts the server with nothing installed: `npx -y` installs a package
 * but not its optional peers, so the MCP SDK is named beside flowblocks (`-p` each) and the
 * command after them runs with both.
 */
export const NPX_MCP_ARGS: readonly string[] = ['-y', '-p', 'flowblocks', '-p', '@modelcontextprotocol/sdk', 'flowblocks', 'mcp'];

/** The one-liner, as a person types it. */
export const NPX_MCP_COMMAND = `npx ${NPX_MCP_ARGS.join(' ')}`;

/** What `flowblocks mcp` says when the SDK is missing: the command that brings it. */
export const CLI_MCP_SDK_MISSING = `the MCP server needs the MCP SDK (@modelcontextprotocol/sdk), an optional peer that npx -y does not install: start it with ${NPX_MCP_COMMAND}, or npm install @modelcontextprotocol/sdk beside flowblocks`;

/**
 * The `mcpServers` entry of a desktop agent's config (Claude Desktop's
 * `claude_desktop_config.json`, Cursor, VS Code): the npx one-liner with the given options, and
 * the environment variables of the services to fill in.
 */
export function desktopConfig(options: { args: readonly string[]; services: readonly string[] }) {
  const env: Record<string, string> = {};
  for (const service of options.services) for (const variable of Object.values(ENV_SETTINGS[service] ?? {})) env[variable] = `<${variable}>`;
  return { mcpServers: { flowblocks: { command: 'npx', args: [...NPX_MCP_ARGS, ...options.args], env } } };
}
