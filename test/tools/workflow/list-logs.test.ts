import { describe, expect, it } from 'vitest';
import { paginate, ToolCallError } from '../../../src/index.js';
import listLogs from '../../../tools/workflow/list-logs.js';
import { LIMITS, logEntry, RATE_HEADERS } from './fixtures.js';
import { auth, API_KEY, fast, platform } from './setup.js';

const LOGS = '/api/v1/logs';
const page = (entries: number[], nextCursor?: string | null) => ({ data: entries.map(logEntry), nextCursor, limits: LIMITS });

describe('workflow_list_logs', () => {
  it('sends every filter, comma lists joined, with the spec defaults', async () => {
    const wf = platform();
    wf.on('GET', LOGS, { status: 200, body: page([1, 2], 'eyJpZCI6ImxvZ18yIn0+/=='), headers: RATE_HEADERS });
    const result = await wf.run('workflow_list_logs', {
      workspaceId: 'ws_1',
      workflowIds: ['wf_orders', 'wf_refunds'],
      folderIds: ['fld_ops'],
      triggers: ['api', 'schedule'],
      level: 'error',
      startDate: '2026-11-01T00:00:00Z',
      endDate: '2026-11-22',
      executionId: 'exec_1',
      minDurationMs: 100,
      maxDurationMs: 60000,
      minCost: 0,
      maxCost: 0.5,
      model: 'gpt-4o',
      cursor: 'eyJpZCI6ImxvZ18wIn0+/==',
      includeTraceSpans: true,
      details: 'full',
    });

    expect(wf.requests).toHaveLength(1);
    const [req] = wf.requests;
    expect(req).toMatchObject({ method: 'GET', path: LOGS, body: undefined });
    expect(req!.headers['x-api-key']).toBe(API_KEY);
    // Decoded back intact: + / = in the cursor were escaped on the way out.
    expect(req!.query).toEqual({
      workspaceId: 'ws_1',
      workflowIds: 'wf_orders,wf_refunds',
      folderIds: 'fld_ops',
      triggers: 'api,schedule',
      level: 'error',
      startDate: '2026-11-01T00:00:00Z',
      endDate: '2026-11-22',
      executionId: 'exec_1',
      minDurationMs: '100',
      maxDurationMs: '60000',
      minCost: '0',
      maxCost: '0.5',
      model: 'gpt-4o',
      limit: '100',
      cursor: 'eyJpZCI6ImxvZ18wIn0+/==',
      order: 'desc',
      details: 'full',
      includeTraceSpans: 'true',
    });
    expect(result).toEqual({
      success: true,
      output: { data: [logEntry(1), logEntry(2)], nextCursor: 'eyJpZCI6ImxvZ18yIn0+/==', limits: LIMITS },
      meta: expect.objectContaining({
        status: 200,
        attempts: 1,
        rateLimit: { limit: 30, remaining: 29, resetAt: '2026-11-22T10:01:00.000Z' },
      }),
    });
  });

  it('sends only the workspace and defaults when nothing else is given, and reads an absent cursor as null', async () => {
    const wf = platform();
    wf.on('GET', LOGS, { status: 200, body: { data: [], limits: LIMITS } });
    const result = await wf.run('workflow_list_logs', { workspaceId: 'ws_1' });
    expect(wf.requests[0]!.query).toEqual({ workspaceId: 'ws_1', limit: '100', order: 'desc', details: 'basic' });
    expect(result).toMatchObject({ success: true, output: { data: [], nextCursor: null, limits: LIMITS } });
  });

  it('refuses bad filters before sending, naming each field', async () => {
    const wf = platform();
    const result = await wf.run('workflow_list_logs', {
      workspaceId: 'ws_1',
      triggers: ['api', 'cron'],
      minCost: 2,
      maxCost: 1,
      startDate: '2026-11-22T00:00:00Z',
      endDate: '2026-11-01T00:00:00Z',
      limit: 5000,
    });
    expect(wf.requests).toHaveLength(0);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('invalid_params');
    expect(result.error.issues!.map((i) => i.path).sort()).toEqual(['limit', 'triggers.1']);
  });

  it('refuses a backwards range before sending', async () => {
    const wf = platform();
    const result = await wf.run('workflow_list_logs', {
      workspaceId: 'ws_1',
      minCost: 2,
      maxCost: 1,
      startDate: '2026-11-22T00:00:00Z',
      endDate: '2026-11-01T00:00:00Z',
    });
    expect(wf.requests).toHaveLength(0);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params' } });
    if (result.success) return;
    expect(result.error.issues!.map((i) => i.path).sort()).toEqual(['minCost', 'startDate']);
  });

  it('follows nextCursor over three pages and stops on a null cursor', async () => {
    const wf = platform();
    wf.on(
      'GET',
      LOGS,
      { status: 200, body: page([1, 2], 'c1'), headers: RATE_HEADERS },
      { status: 200, body: page([3, 4], 'c2'), headers: RATE_HEADERS },
      { status: 200, body: page([5], null), headers: { ...RATE_HEADERS, 'x-ratelimit-remaining': '27' } },
    );
    const result = await wf.run('workflow_list_logs', { workspaceId: 'ws_1', limit: 2, followCursor: true });
    expect(wf.requests.map((r) => r.query.cursor)).toEqual([undefined, 'c1', 'c2']);
    for (const req of wf.requests) expect(req.query).toMatchObject({ workspaceId: 'ws_1', limit: '2' });
    expect(result).toMatchObject({
      success: true,
      output: { data: [1, 2, 3, 4, 5].map(logEntry), nextCursor: null, limits: LIMITS },
      meta: { attempts: 3, rateLimit: { remaining: 27 } },
    });
    expect(result.meta.notes).toBeUndefined();
  });

  it('stops at maxEntries, asking the last page only for what is left so its cursor resumes exactly', async () => {
    const wf = platform();
    wf.on('GET', LOGS, { status: 200, body: page([1, 2], 'c1') }, { status: 200, body: page([3], 'c2') });
    const result = await wf.run('workflow_list_logs', { workspaceId: 'ws_1', limit: 2, followCursor: true, maxEntries: 3 });
    expect(wf.requests.map((r) => [r.query.limit, r.query.cursor])).toEqual([
      ['2', undefined],
      ['1', 'c1'],
    ]);
    expect(result).toMatchObject({ success: true, output: { data: [1, 2, 3].map(logEntry), nextCursor: 'c2' } });
    expect(result.meta.notes).toEqual(['stopped after 2 pages and 3 entries; nextCursor continues the walk']);
  });

  it('stops at maxPages and hands back the cursor to continue', async () => {
    const wf = platform();
    wf.on('GET', LOGS, { status: 200, body: page([1], 'c1') }, { status: 200, body: page([2], 'c2') });
    const result = await wf.run('workflow_list_logs', { workspaceId: 'ws_1', followCursor: true, maxPages: 2 });
    expect(wf.requests).toHaveLength(2);
    expect(result).toMatchObject({ success: true, output: { data: [logEntry(1), logEntry(2)], nextCursor: 'c2' } });
  });

  it('walks every page with paginate() for programs', async () => {
    const wf = platform();
    wf.on('GET', LOGS, { status: 200, body: page([1, 2], 'c1') }, { status: 200, body: page([3, 4], 'c2') }, { status: 200, body: page([5]) });
    const ids: string[] = [];
    for await (const entry of paginate<{ id: string }>(listLogs, { ...auth, workspaceId: 'ws_1', limit: 2 }, { dispatcher: wf.agent, ...fast })) {
      ids.push(entry.id);
    }
    expect(ids).toEqual(['log_1', 'log_2', 'log_3', 'log_4', 'log_5']);
    expect(wf.requests.map((r) => r.query.cursor)).toEqual([undefined, 'c1', 'c2']);
  });

  it('throws ToolCallError from paginate() when a page fails', async () => {
    const wf = platform();
    wf.on('GET', LOGS, { status: 200, body: page([1], 'bad') }, { status: 400, body: { error: 'Invalid cursor' } });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const entry of paginate(listLogs, { ...auth, workspaceId: 'ws_1' }, { dispatcher: wf.agent, ...fast })) seen.push(entry);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([logEntry(1)]);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error).toMatchObject({ code: 'bad_request', message: 'Invalid cursor' });
    expect(wf.requests.map((r) => r.query.cursor)).toEqual([undefined, 'bad']);
  });

  it('waits Retry-After on a 429 and then succeeds', async () => {
    const wf = platform();
    wf.on(
      'GET',
      LOGS,
      {
        status: 429,
        // The body's retryAfter is an epoch in ms; the header, in seconds, is what counts.
        body: { error: 'Rate limit exceeded', message: 'API rate limit exceeded', retryAfter: 1795000000000 },
        headers: { 'retry-after': '1', 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2026-11-22T10:01:00.000Z' },
      },
      { status: 200, body: page([1]), headers: RATE_HEADERS },
    );
    const started = Date.now();
    const result = await wf.run('workflow_list_logs', { workspaceId: 'ws_1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(wf.requests).toHaveLength(2);
    expect(wf.requests[1]!.query).toEqual(wf.requests[0]!.query);
    expect(result).toMatchObject({ success: true, output: { data: [logEntry(1)] }, meta: { attempts: 2, rateLimit: { remaining: 29 } } });
  });

  it('returns the 429 with retryAfterMs when the wait is longer than allowed', async () => {
    const wf = platform();
    wf.on('GET', LOGS, { status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'retry-after': '45' } });
    const result = await wf.run('workflow_list_logs', { workspaceId: 'ws_1' }, { retry: { maxRetryAfterMs: 10_000 } });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'rate_limited', status: 429, retryable: true, retryAfterMs: 45_000, message: 'Rate limit exceeded' },
      meta: { attempts: 1 },
    });
  });

  it('keeps the field errors of a 400 in issues', async () => {
    const wf = platform();
    wf.on('GET', LOGS, {
      status: 400,
      body: { error: 'Invalid request parameters', details: [{ field: 'startDate', message: 'Invalid date' }, 'limit must be at most 1000'] },
    });
    const result = await wf.run('workflow_list_logs', { workspaceId: 'ws_1' });
    expect(result).toMatchObject({
      success: false,
      error: {
        code: 'bad_request',
        message: 'Invalid request parameters',
        issues: [
          { path: 'startDate', message: 'Invalid date' },
          { path: '', message: 'limit must be at most 1000' },
        ],
      },
    });
  });
});
