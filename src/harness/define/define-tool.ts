import type { z } from 'zod';
import type { ToolDefinition } from '../types.js';

/** Types a tool declaration (its `response` reads the `wire` schema's output); the object is returned as it is. */
export function defineTool<PS extends z.ZodType, OS extends z.ZodType, WS extends z.ZodType = z.ZodType, const Id extends string = string>(
  tool: ToolDefinition<PS, OS, WS, Id>,
): ToolDefinition<PS, OS, WS, Id> {
  return tool;
}

