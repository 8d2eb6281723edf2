import { badRequest, PlatformError, type FieldIssue } from './errors.js';
import type { WorkflowDef } from './definition.js';
import type { ExecutionRecord } from './runner.js';

const TRIGGERS = ['api', 'webhook', 'schedule', 'manual', 'chat'];

interface Cursor {
  startedAt: string;
  id: string;
  order: 'asc' | 'desc';
}

/** Cursors are opaque to callers: base64url (URL-safe) JSON of the last row's sort key. */
export const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(text: string): Cursor | undefined {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof value.startedAt === 'string' && typeof value.id === 'string' && (value.order === 'asc' || value.order === 'desc')) {
      return value as Cursor;
    }
  } catch {
    // Reported as an invalid cursor below.
  }
  return undefined;
}

/** (startedAt, id) order: ISO times compare as text, and the id breaks ties between equal times. */
function compare(a: { startedAt: string; id: string }, b: { startedAt: string; id: string }): number {
  if (a.startedAt !== b.startedAt) return a.startedAt < b.startedAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface LogQuery {
  workflowIds?: string[];
  folderIds?: string[];
  triggers?: string[];
  level?: string;
  startDate?: string;
  endDate?: string;
  executionId?: string;
  minDurationMs?: number;
  maxDurationMs?: number;
  minCost?: number;
  maxCost?: number;
  model?: string;
  limit: number;
  cursor?: Cursor;
  order: 'asc' | 'desc';
  details: 'basic' | 'full';
  includeTraceSpans: boolean;
  includeFinalOutput: boolean;
}

/** Reads and checks the query string of `GET /api/v1/logs`; every bad field is listed in `details`. */
export function parseLogQuery(query: URLSearchParams): LogQuery {
  const issues: FieldIssue[] = [];
  const list = (name: string) => query.get(name)?.split(',').map((s) => s.trim()).filter(Boolean);
  const number = (name: string) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) issues.push({ path: name, message: 'must be a non-negative number' });
    return value;
  };
  const bool = (name: string) => {
    const raw = (query.get(name) ?? '').toLowerCase();
    if (['true', '1'].includes(raw)) return true;
    if (['false', '0', ''].includes(raw)) return false;
    issues.push({ path: name, message: 'must be true or false' });
    return false;
  };
  const date = (name: string) => {
    const raw = query.get(name);
    if (!raw) return undefined;
    const time = new Date(raw);
    if (Number.isNaN(time.getTime())) issues.push({ path: name, message: 'must be an ISO 8601 timestamp' });
    return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
  };
  const triggers = list('triggers');
  for (const t of triggers ?? []) if (!TRIGGERS.includes(t)) issues.push({ path: 'triggers', message: `unknown trigger ${t}` });
  const level = query.get('level') ?? undefined;
  if (level !== undefined && level !== 'info' && level !== 'error') issues.push({ path: 'level', message: 'must be info or error' });
  const limitRaw = query.get('limit');
  const limit = limitRaw === null ? 100 : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) issues.push({ path: 'limit', message: 'must be a whole number from 1 to 1000' });
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') issues.push({ path: 'order', message: 'must be asc or desc' });
  const details = query.get('details') ?? 'basic';
  if (details !== 'basic' && details !== 'full') issues.push({ path: 'details', message: 'must be basic or full' });
  const cursorText = query.get('cursor');
  const cursor = cursorText ? decodeCursor(cursorText) : undefined;
  if (cursorText && !cursor) issues.push({ path: 'cursor', message: 'Invalid cursor' });
  if (cursor && cursor.order !== order) issues.push({ path: 'cursor', message: `the cursor was made for order=${cursor.order}` });
  const parsed: LogQuery = {
    workflowIds: list('workflowIds'),
    folderIds: list('folderIds'),
    triggers,
    level,
    startDate: date('startDate'),
    endDate: date('endDate'),
    executionId: query.get('executionId') ?? undefined,
    minDurationMs: number('minDurationMs'),
    maxDurationMs: number('maxDurationMs'),
    minCost: number('minCost'),
    maxCost: number('maxCost'),
    model: query.get('model') ?? undefined,
    limit,
    cursor,
    order: order as 'asc' | 'desc',
    details: details as 'basic' | 'full',
    includeTraceSpans: bool('includeTraceSpans'),
    includeFinalOutput: bool('includeFinalOutput'),
  };
  if (issues.length) throw badRequest(issues);
  return parsed;
}

function matches(record: ExecutionRecord, q: LogQuery, workflow: WorkflowDef | undefined): boolean {
  if (q.workflowIds && !q.workflowIds.includes(record.workflowId)) return false;
  if (q.folderIds && !(workflow?.folderId && q.folderIds.includes(workflow.folderId))) return false;
  if (q.triggers && !q.triggers.includes(record.trigger)) return false;
  if (q.level && record.level !== q.level) return false;
  if (q.startDate && record.startedAt < q.startDate) return false;
  if (q.endDate && record.startedAt > q.endDate) return false;
  if (q.executionId && record.executionId !== q.executionId) return false;
  if (q.minDurationMs !== undefined && record.totalDurationMs < q.minDurationMs) return false;
  if (q.maxDurationMs !== undefined && record.totalDurationMs > q.maxDurationMs) return false;
  if (q.minCost !== undefined && record.cost.total < q.minCost) return false;
  if (q.maxCost !== undefined && record.cost.total > q.maxCost) return false;
  if (q.model && !Object.hasOwn(record.cost.models, q.model)) return false;
  return true;
}

function workflowSummary(workflow: WorkflowDef | undefined, id: string) {
  return { id, name: workflow?.name ?? 'Deleted Workflow', description: workflow?.description ?? '' };
}

/** A log list entry: basic, or with the workflow and full cost; trace spans and final output on request. */
export function logEntry(record: ExecutionRecord, q: Pick<LogQuery, 'details' | 'includeTraceSpans' | 'includeFinalOutput'>, workflow: WorkflowDef | undefined) {
  const { id, workflowId, executionId, level, trigger, startedAt, endedAt, totalDurationMs, files } = record;
  return {
    id,
    workflowId,
    executionId,
    level,
    trigger,
    startedAt,
    endedAt,
    totalDurationMs,
    cost: q.details === 'full' ? record.cost : { total: record.cost.total },
    files,
    ...(q.details === 'full' ? { workflow: workflowSummary(workflow, workflowId) } : {}),
    ...(q.includeTraceSpans ? { traceSpans: record.traceSpans } : {}),
    ...(q.includeFinalOutput ? { finalOutput: record.finalOutput } : {}),
  };
}

/** The log detail of `GET /api/v1/logs/{id}` (limits are added by the caller). */
export function logDetail(record: ExecutionRecord, workflow: WorkflowDef | undefined) {
  const { id, workflowId, executionId, level, trigger, startedAt, endedAt, totalDurationMs, files, cost } = record;
  return {
    id,
    workflowId,
    executionId,
    level,
    trigger,
    startedAt,
    endedAt,
    totalDurationMs,
    files,
    workflow: workflowSummary(workflow, workflowId),
    executionData: { traceSpans: record.traceSpans, finalOutput: record.finalOutput },
    cost,
  };
}

/**
 * One page of a workspace's logs: keyset pagination on (startedAt, id), `limit + 1` rows
 * read so `nextCursor` is sent only when another page exists.
 */
export function listLogs(records: readonly ExecutionRecord[], q: LogQuery, workflows: ReadonlyMap<string, WorkflowDef>) {
  const sorted = records.filter((r) => matches(r, q, workflows.get(r.workflowId))).sort(compare);
  if (q.order === 'desc') sorted.reverse();
  const after = q.cursor
    ? sorted.filter((r) => (q.order === 'desc' ? compare(r, q.cursor!) < 0 : compare(r, q.cursor!) > 0))
    : sorted;
  const page = after.slice(0, q.limit + 1);
  const more = page.length > q.limit;
  const rows = page.slice(0, q.limit);
  const last = rows.at(-1);
  return {
    data: rows.map((r) => logEntry(r, q, workflows.get(r.workflowId))),
    ...(more && last ? { nextCursor: encodeCursor({ startedAt: last.startedAt, id: last.id, order: q.order }) } : {}),
  };
}

export function notFound(what: string): PlatformError {
  return new PlatformError(404, `${what} not found`);
}
