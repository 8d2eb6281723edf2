/**
 * Input items of a tool that sends rows (`batch`: Tinybird's events) as one call, as the
 * service takes many rows per request: items whose other params agree are joined, the tool
 * sends them (its own chunking and accounting), and each item gets its own outcome: the
 * batch's answer, or the failure of the rows it gave (a failure's `issues[].rows`).
 */
import { ToolFailure } from '../../harness/errors.js';
import { executeTool } from '../../index.js';
import type { AnyTool, BatchSpec, ExecuteOptions, ToolError, ToolIssue } from '../../harness/types.js';

export interface BatchEntry {
  itemIndex: number;
  params: Record<string, unknown>;
  options: ExecuteOptions;
}

export type BatchOutcome = { success: true; output: Record<string, unknown> } | { success: false; error: ToolError };

interface Joined {
  entry: BatchEntry;
  rows: string[];
  /** The item's rows in the joined call, 1-based. */
  first: number;
  last: number;
}

const overlaps = (issue: ToolIssue, { first, last }: Joined) => issue.rows !== undefined && issue.rows.first <= last && (issue.rows.last ?? Infinity) >= first;

/** The key of the params a joined call shares: every param but the rows'. */
function sharedKey(batch: BatchSpec, params: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(params).filter(([name]) => !batch.params.includes(name)));
}

/** Every entry's outcome, by item index. */
export async function runBatched(tool: AnyTool, entries: BatchEntry[]): Promise<Map<number, BatchOutcome>> {
  const batch = tool.batch!;
  const outcomes = new Map<number, BatchOutcome>();
  const groups = new Map<string, Joined[]>();
  for (const entry of entries) {
    let rows: string[];
    try {
      rows = batch.rows(entry.params);
    } catch (error) {
      if (!(error instanceof ToolFailure)) throw error;
      outcomes.set(entry.itemIndex, { success: false, error: error.error });
      continue;
    }
    const key = sharedKey(batch, entry.params);
    const group = groups.get(key) ?? [];
    const first = (group.at(-1)?.last ?? 0) + 1;
    group.push({ entry, rows, first, last: first + rows.length - 1 });
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const rows = group.flatMap((joined) => joined.rows);
    const { entry } = group[0]!;
    const result = await executeTool(tool, batch.join(entry.params, rows), entry.options);
    const sent = { items: group.length, rows: rows.length };
    for (const joined of group) {
      const own = { rows: joined.rows.length, first_row: joined.first, last_row: joined.last };
      if (result.success) {
        outcomes.set(joined.entry.itemIndex, { success: true, output: { ...own, batch: { ...sent, ...(result.output as object) } } });
        continue;
      }
      const rowIssues = (result.error.issues ?? []).filter((issue) => issue.rows);
      // A failure that names no rows is the whole call's: every item's.
      if (!rowIssues.length) {
        outcomes.set(joined.entry.itemIndex, { success: false, error: result.error });
        continue;
      }
      const mine = rowIssues.filter((issue) => overlaps(issue, joined));
      outcomes.set(
        joined.entry.itemIndex,
        mine.length ? { success: false, error: { ...result.error, issues: mine } } : { success: true, output: { ...own, batch: sent } },
      );
    }
  }
  return outcomes;
}
