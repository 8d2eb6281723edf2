import { agentDefinition } from './definitions.js';
import { createToolExecutor, type AgentToolResult, type ToolCallOptions, type ToolExecutor } from './executor.js';
import type { AgentToolOptions } from './options.js';
import { DEFAULT_MAX_RESULT_BYTES } from './bound-result.js';

/** The MCP `tools/list` and `tools/call` answers, without the MCP SDK (which only carries them). */
export interface McpToolHandlers {
  executor: ToolExecutor;
  list(): { tools: McpTool[] };
  /** `call` carries a remote server's per-request settings and progress logger. */
  call(name: string, args: unknown, signal?: AbortSignal, call?: Omit<ToolCallOptions, 'signal' | 'strict'>): Promise<McpCallResult>;
  /** The same call's result serialized (`toMcpResultJson`), for a server that writes JSON itself. */
  callJson(name: string, args: unknown, signal?: AbortSignal, call?: Omit<ToolCallOptions, 'signal' | 'strict'>): Promise<string>;
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
  const structured = structuredOf(result);
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** A successful result as MCP's structured content: the result without its `ok`. */
function structuredOf(result: Extract<AgentToolResult, { ok: true }>): Record<string, unknown> {
  const structured = { ...result } as Record<string, unknown>;
  delete structured.ok;
  return structured;
}

/**
 * `toMcpResult`'s JSON, the same text: the structured content's JSON is the text itself, so a
 * successful result is serialized once, not once as text and again as structured content.
 */
export function toMcpResultJson(result: AgentToolResult): string {
  if (!result.ok) return JSON.stringify(toMcpResult(result));
  const text = JSON.stringify(structuredOf(result));
  return `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`;
}

export function createMcpToolHandlers(options: AgentToolOptions = {}): McpToolHandlers {
  // MCP clients send the `llm` schema's arguments; the strict variant is for APIs that ask for it.
  const settings = { ...options, strict: false };
  // A result goes twice (the text for every client, and the structured content): each copy gets half the bound.
  const executor = createToolExecutor({ ...settings, maxResultBytes: Math.floor((options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES) / 2) });
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
    call: async (name, args, signal, call = {}) => toMcpResult(await executor.execute(name, args ?? {}, signal ? { ...call, signal } : call)),
    callJson: async (name, args, signal, call = {}) => toMcpResultJson(await executor.execute(name, args ?? {}, signal ? { ...call, signal } : call)),
  };
}
