import type { AnyTool } from '../../harness/types.js';
import { encodePageCursor, type PageCursor } from './page-cursor.js';

/** How much of a result was left out, so a model can say so or narrow its call. */
export interface Truncation {
  field: string;
  returned: number;
  total: number;
  unit: 'items' | 'rows' | 'lines' | 'characters';
}

export interface ShapedOutput {
  output: unknown;
  truncated?: Truncation;
  notes: string[];
}

const MAX_TEXT_CHARS = 20_000;

/** Tools whose output holds query rows (they say so with `rowsField`). */
export const isQueryTool = (tool: AnyTool): boolean => tool.rowsField !== undefined;

type Path = string[];

/** The path (two levels deep at most) of the first value matching `test`. */
function findPath(value: unknown, test: (value: unknown, key: string) => boolean, depth = 2): Path | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (test(child, key)) return [key];
    const below = depth > 1 ? findPath(child, test, depth - 1) : undefined;
    if (below) return [key, ...below];
  }
  return undefined;
}

/** A copy of `value` with `path` replaced; the tool's own output object is left as it was. */
function withPath(value: unknown, path: Path, replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  const record = value as Record<string, unknown>;
  return { ...record, [head]: withPath(record[head], rest, replacement) };
}

/**
 * A list tool's page cut to `maxItems`, starting where `position` says. When items of the
 * page are left, the cursor in the output becomes one of ours that resumes inside the page;
 * otherwise it stays the service's own.
 */
export function shapeListPage(tool: AnyTool, output: unknown, position: PageCursor | undefined, maxItems: number): ShapedOutput {
  const pagination = tool.pagination!;
  const items = pagination.items(output);
  const offset = Math.min(position?.offset ?? 0, items.length);
  if (offset === 0 && items.length <= maxItems) return { output, notes: [] };
  const next = pagination.nextCursor(output) ?? null;
  const itemsPath = findPath(output, (value) => value === items);
  const cursorPath = findPath(output, (value, key) => /cursor/i.test(key) && value === next);
  if (!itemsPath || !cursorPath) return { output, notes: [] };
  const page = items.slice(offset, offset + maxItems);
  const end = offset + page.length;
  const resume = end < items.length ? encodePageCursor({ cursor: position?.cursor, offset: end }) : next;
  let shaped = withPath(output, itemsPath, page);
  shaped = withPath(shaped, cursorPath, resume);
  const where = resume ? `pass ${cursorPath.join('.')} as ${pagination.cursorParam} to continue` : 'this was the last page';
  return {
    output: shaped,
    truncated: { field: itemsPath.join('.'), returned: page.length, total: items.length, unit: 'items' },
    notes: [`items ${offset + 1} to ${end} of the ${items.length} on this page; ${where}`],
  };
}

/** A query result cut to `maxRows` rows (or lines of text), saying how many there were. */
export function shapeQueryRows(output: unknown, maxRows: number): ShapedOutput {
  const result = output as { data?: unknown; rows_before_limit_at_least?: number };
  const data = result.data;
  if (Array.isArray(data)) {
    if (data.length <= maxRows) return { output, notes: [] };
    return {
      output: { ...result, data: data.slice(0, maxRows) },
      truncated: { field: 'data', returned: maxRows, total: data.length, unit: 'rows' },
      notes: [`returned ${maxRows} of ${data.length} rows; aggregate or add a LIMIT to see the rest`],
    };
  }
  if (typeof data !== 'string') return { output, notes: [] };
  const lines = data.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length > maxRows) {
    return {
      output: { ...result, data: `${lines.slice(0, maxRows).join('\n')}\n` },
      truncated: { field: 'data', returned: maxRows, total: lines.length, unit: 'lines' },
      notes: [`returned ${maxRows} of ${lines.length} lines; aggregate or add a LIMIT to see the rest`],
    };
  }
  if (data.length > MAX_TEXT_CHARS) {
    return {
      output: { ...result, data: data.slice(0, MAX_TEXT_CHARS) },
      truncated: { field: 'data', returned: MAX_TEXT_CHARS, total: data.length, unit: 'characters' },
      notes: [`returned ${MAX_TEXT_CHARS} of ${data.length} characters; ask for fewer columns or rows`],
    };
  }
  return { output, notes: [] };
}
