import { agentDefinition } from './definitions.js';
import { createToolExecutor, type AgentToolResult, type ToolExecutor } from './executor.js';
import type { AgentToolOptions } from './options.js';

/** The MCP `tools/list` and `tools/call` answers, without the MCP SDK (which only carries them). */
export interface McpToolHandlers {
  executor: ToolExecutor;
  list(): { tools: McpTool[] };
  call(name: string, args: unknown, signal?: AbortSignal): Promise<McpCallResult>;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

export interface McpCallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/** A call's result as MCP content: the JSON as text for every client, and as structured content. */
export function toMcpResult(result: AgentToolResult): McpCallResult {
  if (!result.ok) {
    return {
      content: [{ type: 'text', text: result.error.message }],
      structuredContent: { error: result.error },
      isError: true,
    };
  }
  const structured = { ...result } as Record<string, unknown>;
  delete structured.ok;
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

export function createMcpToolHandlers(options: AgentToolOptions = {}): McpToolHandlers {
  // MCP clients send the `llm` schema's arguments; the strict variant is for APIs that ask for it.
  const settings = { ...options, strict: false };
  const executor = createToolExecutor(settings);
  const tools: McpTool[] = executor.tools.map((tool) => {
    const definition = agentDefinition(tool, settings);
    return {
      name: tool.id,
      title: tool.name,
      description: definition.description,
      inputSchema: { ...definition.parameters, type: 'object' },
      annotations: {
        title: tool.name,
        readOnlyHint: tool.annotations.readOnly,
        destructiveHint: tool.annotations.destructive,
        idempotentHint: tool.annotations.idempotent,
        // Every tool talks to a service outside the client.
        openWorldHint: true,
      },
    };
  });
  return {
    executor,
    list: () => ({ tools }),
    call: async (name, args, signal) => toMcpResult(await executor.execute(name, args ?? {}, signal ? { signal } : {})),
  };
}
