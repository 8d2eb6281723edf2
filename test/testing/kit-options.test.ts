/**
 * Issue 44, item 2: the testing kit's options at values where getting them wrong shows. Every
 * earlier test passed `retryAfterSeconds: 0` (0 s and 0 ms read the same) and `times: 1`
 * (one too many or too few shows only past 1).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { mockServices, recordServices } from '../../src/testing/index.js';
import { BASE_URLS, SECRETS } from './helpers.js';

const tinybird = { base_url: BASE_URLS.tinybird!, token: SECRETS.tinybird! };
const query = { ...tinybird, query: 'SELECT 1 FORMAT JSON' };

describe('mockServices().fail(…, { retryAfterSeconds })', () => {
  it('is seconds: 3 answers Retry-After: 3, which the harness reads as 3000 ms', async () => {
    const mock = mockServices().fail('tinybird_query', 'rate_limited', { retryAfterSeconds: 3 });
    const result = await executeTool('tinybird_query', query, { dispatcher: mock, retry: false });
    expect(result).toMatchObject({ success: false, error: { code: 'rate_limited', status: 429, retryAfterMs: 3_000 } });
  });

  it('a call allowed to wait less than it is told hands back at once with that wait', async () => {
    const mock = mockServices().fail('tinybird_query', 'rate_limited', { retryAfterSeconds: 120, times: 1 });
    const t0 = performance.now();
    const result = await executeTool('tinybird_query', query, { dispatcher: mock, retry: { maxRetryAfterMs: 60_000 } });
    expect(result).toMatchObject({ success: false, error: { code: 'rate_limited', retryAfterMs: 120_000 } });
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(mock.calls('tinybird_query')).toHaveLength(1);
  });
});

describe('mockServices() overrides with { times }', () => {
  it('times: 2 fails exactly twice, then the standing answer comes back', async () => {
    const mock = mockServices().fail('tinybird_query', 'upstream_error', { times: 2, retryAfterSeconds: 0 });
    const result = await executeTool('tinybird_query', query, { dispatcher: mock, retry: { baseDelayMs: 1 } });
    expect(result).toMatchObject({ success: true, meta: { attempts: 3 } });
    expect(mock.calls('tinybird_query').map((call) => call.outcome)).toEqual([500, 500, 200]);
  });

  it('reply(…, { times: 3, status }) answers three times with that status, in order before a later override', async () => {
    const mock = mockServices()
      .reply('tinybird_query', { data: [{ n: 1 }], meta: [], rows: 1, statistics: { elapsed: 0, rows_read: 1, bytes_read: 1 } }, { times: 3, status: 200 })
      .reply('tinybird_query', { data: [{ n: 2 }], meta: [], rows: 1, statistics: { elapsed: 0, rows_read: 1, bytes_read: 1 } }, { times: 1 });
    const rows: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await executeTool('tinybird_query', query, { dispatcher: mock, retry: false });
      rows.push(result.success ? (result.output as { data: { n?: number }[] }).data[0]?.n ?? 'fixture' : result.error.code);
    }
    expect(rows).toEqual([1, 1, 1, 2, 'fixture']);
  });
});

describe('recordServices().save(path) that cannot write', () => {
  it('throws, and leaves neither a file nor its temp file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowblocks-save-'));
    try {
      // A directory where the file should go: the write lands, the rename into place fails.
      const path = join(dir, 'taken.json');
      mkdirSync(path);
      expect(() => recordServices().save(path)).toThrow(/EISDIR|ENOTEMPTY|EEXIST|EPERM/);
      expect(readdirSync(dir)).toEqual(['taken.json']);
      expect(readdirSync(path)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
