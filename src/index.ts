/**
 * flowblocks: integration blocks and agent tools for visual workflow platforms. This is the
 * consumers' side: run tools, list services and blocks, read schemas. Tool authors build
 * with `src/kit.ts`. README.md has a tour, docs/architecture.md the layers.
 */
import type { z } from 'zod';
import { runTool } from './harness/run/execute.js';
import type { AnyTool, ExecuteOptions, ToolResult } from './harness/types.js';
import { endpointIssues } from './harness/run/endpoints.js';
import { didYouMean } from './harness/did-you-mean.js';
import { getTool, listServices, listTools, type KnownToolId, type ToolId, type ToolMap } from './registry.js';
import { paramsJsonSchema, type Audience, type JsonSchema } from './schema.js';

export { listTools, getTool, listBlocks, getBlock, listServices, getService, registerService } from './registry.js';
export type { BlockMap, BuiltinTool, KnownToolId, ServiceMap, ToolId, ToolMap, ToolOf } from './registry.js';
export { mergeLlmParams, type Audience, type JsonSchema } from './schema.js';
export { runTool } from './harness/run/execute.js';
export { paginate, type PaginateOptions } from './harness/define/paginate.js';
export { ToolCallError } from './harness/errors.js';
export { closeSharedDispatcher } from './harness/send/dispatcher.js';
export { Pacer, type PacerOptions } from './harness/pace/pacer.js';
export { defineTool } from './harness/define/define-tool.js';
export {
  defineConnection,
  defineService,
  type BlockOptions,
  type Connection,
  type ConnectionSpec,
  type Service,
  type ServiceCall,
  type ServiceDefinition,
} from './harness/define/service.js';
export { defineBlock, type Block } from './blocks/define-block.js';
export { serviceBlock } from './blocks/service-block.js';
export type { BlockManifest, FieldManifest, OutputManifest, BlockDefinition } from './blocks/manifest.js';
export { secretParam, userOnlyParam, uiParam, type FieldMeta } from './harness/define/fields.js';
export type * from './harness/types.js';

/** A tool object, a built-in tool's literal id, or an id known only at run time (a `string`). */
export type ToolRef = AnyTool | ToolId | (string & {});
/** The params a tool takes: its schema's input for a tool object or a built-in id; `unknown` for any other id. */
export type ParamsOf<R> = R extends AnyTool ? z.input<R['params']> : R extends ToolId ? z.input<ToolMap[R]['params']> : unknown;
/** A tool's output: its output schema's for a tool object or a built-in id; `unknown` for any other id. */
export type OutputOf<R> = R extends AnyTool ? z.output<R['output']> : R extends ToolId ? z.output<ToolMap[R]['output']> : unknown;

/**
 * Runs a tool by id (or a tool object): validates, sends with retries and a time limit, and
 * returns a `ToolResult`. Failures are results, never throws. A tool object or a built-in
 * id's literal types the params and the output. A literal id that is no tool's is a type
 * error naming it (`KnownToolId`); an id known only at run time (a tool registered later, an id
 * read from a file) is passed typed as `string`: it takes any params, and its output is `O`
 * (default `unknown`). Unknown at run time, the result is `unknown_tool` with a did-you-mean.
 *
 * One signature, not overloads: a wrong, missing or mistyped param is reported on the params
 * argument, naming the param, by every TypeScript version (with overloads TypeScript 7
 * reported the id as "not assignable to never", 5.9 the cause under "Overload 2 of 3").
 */
export function executeTool<R extends ToolRef, O = OutputOf<R>>(
  tool: R extends string ? KnownToolId<R> : R,
  params: ParamsOf<R>,
  options?: ExecuteOptions,
): Promise<ToolResult<O>>;
export function executeTool(
  idOrTool: string | AnyTool,
  params: unknown,
  options: ExecuteOptions = {},
): Promise<ToolResult<unknown>> {
  // Not an async function: `runTool`'s promise is handed back as it is, without the extra
  // ticks of resolving an async function with a promise. A throw still rejects.
  try {
    const tool = typeof idOrTool === 'string' ? getTool(idOrTool) : idOrTool;
    if (!tool) {
      return Promise.resolve({
        success: false,
        error: { code: 'unknown_tool', message: `no tool with id ${String(idOrTool)}${didYouMean(String(idOrTool), listTools().map((t) => t.id))}`, retryable: false },
        meta: { attempts: 0, durationMs: 0 },
      });
    }
    // A name that is no service's would send the call to the real service: refused before any request.
    // The list of names is made only for a call that names endpoints.
    const unknown = options.endpoints
      ? endpointIssues(options.endpoints, [...new Set([...listServices().map((s) => s.id), tool.service])]).filter((i) =>
          i.message.startsWith('no service'),
        )
      : [];
    if (unknown.length) {
      return Promise.resolve({
        success: false,
        error: { code: 'invalid_params', message: `invalid options: ${unknown.map((i) => `${i.path}: ${i.message}`).join('; ')}`, retryable: false, issues: unknown },
        meta: { attempts: 0, durationMs: 0 },
      });
    }
    return runTool(tool, params, options);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** JSON Schema of a tool's params; `llm` leaves out `user-only` params. Throws for an unknown id. */
export function toolJsonSchema(id: string, { audience = 'full' }: { audience?: Audience } = {}): JsonSchema {
  const tool = getTool(id);
  if (!tool) throw new Error(`no tool with id ${id}`);
  return paramsJsonSchema(tool, audience);
}
