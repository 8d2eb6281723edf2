import type { z } from 'zod';
import { ownValue } from '../dictionary.js';
import type { ExecuteOptions, ToolDefinition } from '../types.js';

/** Types a tool declaration (its `response` reads the `wire` schema's output); the object is returned as it is. */
export function defineTool<PS extends z.ZodType, OS extends z.ZodType, WS extends z.ZodType = z.ZodType, const Id extends string = string>(
  tool: ToolDefinition<PS, OS, WS, Id>,
): ToolDefinition<PS, OS, WS, Id> {
  return tool;
}

/** The base URL of a service without a `base_url` param: the caller's override, else the real one. */
export function endpoint(options: ExecuteOptions, service: string, fallback: string): string {
  // The caller's own entry only: `endpoints` may be parsed JSON or CLI pairs.
  const override = options.endpoints ? (ownValue(options.endpoints, service) as string | undefined) : undefined;
  return (override ?? fallback).replace(/\/+$/, '');
}
