/**
 * `flowblocks ingest`'s closing lines count in words a person reads (#42): one row, one
 * request; a range of one row is `row 7`, not `rows 7-7`.
 */
import { describe, expect, it } from 'vitest';
import { ingestSummary } from '../../src/satellites/cli/ingest-report.js';
import type { IngestReport } from '../../tools/tinybird/ingest/send-chunks.js';

const report = (over: Partial<IngestReport>): IngestReport =>
  ({
    rows: 1, bytes: 10, ingested_bytes: 10, requests: 1, successful_rows: 1, quarantined_rows: 0, failed_rows: 0, unknown_rows: 0,
    skipped_rows: 0, skipped_bytes: 0, failed: [], unknown: [], maybe_duplicated: [], ...over,
  }) as IngestReport;
const context = { datasource: 'events', baseUrl: 'http://127.0.0.1:9' };

describe('ingest summary wording', () => {
  it('1 row ingested, 1 request; 1 row skipped', () => {
    expect(ingestSummary(report({ skipped_rows: 1 }), context).stdout).toBe('1 row ingested, 0 quarantined, 1 request, 1 row skipped\n');
    expect(ingestSummary(report({ successful_rows: 3000, requests: 4, skipped_rows: 2 }), context).stdout).toBe('3000 rows ingested, 0 quarantined, 4 requests, 2 rows skipped\n');
  });

  it('a one-row range is "row n"', () => {
    const error = { code: 'bad_request' as const, message: 'Bad row', retryable: false, status: 400 };
    const { stderr } = ingestSummary(report({ successful_rows: 0, failed: [{ first_row: 7, last_row: 7, error }], unknown: [{ first_row: 8, last_row: 9, error }] }), context);
    expect(stderr).toEqual([
      'row 7 not ingested: bad_request 400: Bad row\n',
      'rows 8-9: outcome unknown, they may be in the Data Source (check before sending them again): bad_request 400: Bad row\n',
    ]);
  });
});
