import { describe, expect, it } from 'vitest';
import { listLogs, parseLogQuery } from '../../src/satellites/sandbox/workflow/logs.js';
import type { ExecutionRecord } from '../../src/satellites/sandbox/workflow/runner.js';

/** Records that share start times, where a cursor on startedAt alone would skip or repeat rows. */
function record(id: string, startedAt: string): ExecutionRecord {
  return {
    id,
    executionId: `exec_${id}`,
    workflowId: 'wf',
    workspaceId: 'ws',
    level: 'info',
    trigger: 'api',
    startedAt,
    endedAt: startedAt,
    totalDurationMs: 1,
    cost: { total: 0.001, tokens: { prompt: 0, completion: 0, total: 0 }, models: {} },
    files: null,
    traceSpans: [],
    finalOutput: {},
    workflowState: { blocks: {}, edges: [], loops: {}, parallels: {} },
  };
}

const same = '2026-11-22T10:00:00.000Z';
const later = '2026-11-22T10:00:01.000Z';
const records = [record('log_c', same), record('log_a', same), record('log_d', later), record('log_b', same), record('log_e', later)];

function walk(order: 'asc' | 'desc', limit: number): string[] {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ workspaceId: 'ws', order, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const page = listLogs(records, parseLogQuery(query), new Map());
    seen.push(...page.data.map((e) => e.id));
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

describe('log cursors', () => {
  it('break ties on the id, so equal start times are neither skipped nor repeated', () => {
    expect(walk('asc', 1)).toEqual(['log_a', 'log_b', 'log_c', 'log_d', 'log_e']);
    expect(walk('desc', 2)).toEqual(['log_e', 'log_d', 'log_c', 'log_b', 'log_a']);
  });

  it('send no nextCursor on the last page', () => {
    const page = listLogs(records, parseLogQuery(new URLSearchParams({ limit: '5' })), new Map());
    expect(page.data).toHaveLength(5);
    expect(page).not.toHaveProperty('nextCursor');
  });
});
