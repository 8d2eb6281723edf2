import { runTool } from '../run/execute.js';
import { ToolCallError } from '../errors.js';
import type { AnyTool, ExecuteOptions, PaginationSpec } from '../types.js';

export interface PaginateOptions extends ExecuteOptions {
  /** Stop after this many pages. */
  maxPages?: number;
  /** Stop after this many items. */
  maxItems?: number;
  /** Overrides the tool's own pagination spec. */
  pagination?: PaginationSpec;
}

/**
 * Walks every page of a list tool as an async iterator of items, following its cursor
 * until the service returns none (or a cap is reached). Each page is a full harness call,
 * so it gets the same validation, retries and pacing; a failed page throws `ToolCallError`.
 */
export async function* paginate<T = unknown>(
  tool: AnyTool,
  params: Record<string, unknown>,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const spec = options.pagination ?? tool.pagination;
  if (!spec) throw new Error(`${tool.id} is not a paginated tool`);
  const { maxPages = Infinity, maxItems = Infinity, pagination: _ignored, ...callOptions } = options;
  let cursor: string | null | undefined = params[spec.cursorParam] as string | undefined;
  let items = 0;
  for (let page = 0; page < maxPages; page++) {
    const pageParams = cursor ? { ...params, [spec.cursorParam]: cursor } : params;
    const result = await runTool(tool, pageParams, callOptions);
    if (!result.success) throw new ToolCallError(tool.id, result.error, result.meta);
    for (const item of spec.items(result.output)) {
      if (items++ >= maxItems) return;
      yield item as T;
    }
    cursor = spec.nextCursor(result.output);
    if (!cursor) return;
  }
}
