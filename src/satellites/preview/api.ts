import { z } from 'zod';
import type { Block } from '../../blocks/define-block.js';
import type { BlockManifest } from '../../blocks/manifest.js';
import { executeTool } from '../../index.js';
import type { ToolResult } from '../../harness/types.js';
import { endpointServiceOf, type PreviewConnection } from './connection.js';

/** One block as the page gets it: the manifest an editor renders plus the values to start from. */
export interface PreviewBlock {
  manifest: BlockManifest;
  /** Prefilled field values (base URLs, credentials) by field id. */
  values: Record<string, string>;
  /** Values to pick from, by field id (shown as suggestions). */
  choices?: Record<string, string[]>;
  /** For a block whose tools take no `base_url`: the `endpoints` key the page asks a URL for, and its value. */
  endpoint?: { service: string; url: string };
}

export interface BlocksResponse {
  connection: string;
  blocks: PreviewBlock[];
}

export function blocksResponse(blocks: Block[], connection: PreviewConnection): BlocksResponse {
  return {
    connection: connection.label,
    blocks: blocks.map((block) => {
      const entry: PreviewBlock = { manifest: block.manifest, values: connection.values[block.type] ?? {} };
      const choices = connection.choices?.[block.type];
      if (choices) entry.choices = choices;
      const service = endpointServiceOf(block);
      if (service) entry.endpoint = { service, url: connection.endpoints[service] ?? '' };
      return entry;
    }),
  };
}

const runRequest = z.object({
  type: z.string(),
  values: z.record(z.string(), z.unknown()),
  endpoints: z.record(z.string(), z.string()).optional(),
});

export interface RunResponse {
  status: number;
  body: { tool: string; result: ToolResult<unknown> } | { error: string };
}

/** A JSON field's text that does not parse, named by the field's title (resolve's own error names no field). */
function badJsonField(block: Block, values: Record<string, unknown>): string | undefined {
  for (const field of block.manifest.fields) {
    const value = values[field.id];
    if (block.manifest.inputs[field.id]?.type !== 'json' || typeof value !== 'string' || value === '') continue;
    try {
      JSON.parse(value);
    } catch (error) {
      return `${field.title} is not valid JSON: ${(error as Error).message}`;
    }
  }
  return undefined;
}

/** `POST /api/run`: editor values → `block.resolve` → `executeTool`, answered with the normalized result. */
export async function runBlock(blocks: Block[], connection: PreviewConnection, body: unknown): Promise<RunResponse> {
  const parsed = runRequest.safeParse(body);
  if (!parsed.success) return { status: 400, body: { error: `expected {type, values, endpoints?}: ${parsed.error.message}` } };
  const { type, values } = parsed.data;
  const block = blocks.find((b) => b.type === type);
  if (!block) return { status: 404, body: { error: `no block ${type}` } };
  const badJson = badJsonField(block, values);
  if (badJson) return { status: 400, body: { error: badJson } };
  let resolved;
  try {
    resolved = block.resolve(values);
  } catch (error) {
    return { status: 400, body: { error: (error as Error).message } };
  }
  // The page's endpoint wins over the one the preview started with; an emptied one means the real service.
  const endpoints = { ...connection.endpoints, ...parsed.data.endpoints };
  for (const [service, url] of Object.entries(endpoints)) if (!url.trim()) delete endpoints[service];
  const result = await executeTool(resolved.tool.id, resolved.params, { endpoints });
  return { status: 200, body: { tool: resolved.tool.id, result } };
}
