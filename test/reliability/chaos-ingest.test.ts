/**
 * Chaos ingest: 200,000 rows through `ingestEvents` into the sandbox while 10% of requests
 * fail (dropped connections, 429, 503), then the Data Source holds each row exactly once.
 *
 * What holds in general: 429 and 503 are refusals before any work, retried without
 * duplicating anything. A dropped connection leaves the outcome unknown: with
 * `onAmbiguous: 'retry'` it is sent again (at-least-once: a connection cut after the
 * service wrote the rows duplicates them, see hostile-ingest.test.ts); with `'stop'` its
 * rows come back in `report.unknown` and the run stops. The sandbox decides a fault before
 * it reads the request, so here a dropped request never wrote anything, and both runs end
 * exactly once — which is a property of these faults, not of the Events API.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { ingestEvents, type IngestReport } from '../../tools/tinybird/index.js';
import { watchUnhandled } from './canary.js';
import { tally } from './tally.js';

const ROWS = 200_000;
const FAULTS = { dropRate: 0.04, rate429: 0.03, rate5xx: 0.03 };
const family = tally('Chaos ingest', 'row (two runs of 200,000)');

let sb: Sandbox;
const unhandled = watchUnhandled();
beforeAll(async () => {
  sb = await startSandbox({ faultSeed: 8, tinybird: { eventsPerSecond: 100_000 } });
});
afterAll(async () => {
  unhandled.stop();
  await sb?.close();
  family.save('chaos-ingest');
});

function* rows(event: string, first: number, last: number) {
  for (let i = first; i <= last; i++) yield { timestamp: '2026-11-22 10:00:00', event, user_id: `u${i}` };
}

/**
 * `onAmbiguous: 'retry'` retries every fault; `'stop'` stops at a dropped connection with
 * its rows in `report.unknown`, and the loop re-sends them and resumes from
 * `report.stopped.resume_from_row`, as a user would after checking that the unknown rows
 * are not in (the sandbox drops before reading, so they never are).
 */
it.each([
  ['wait: true, onAmbiguous retry', true, 'retry'],
  ['wait: false, onAmbiguous stop, re-sending unknown rows and resuming', false, 'stop'],
] as const)('200,000 rows, one request in ten failing, land exactly once: %s', async (label, wait, onAmbiguous) => {
  const event = wait ? 'chaos_wait' : 'chaos_nowait';
  const target = { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken, datasource: 'events' };
  const attempts = { requests: 0, answered: 0, refused: 0 };
  const options = {
    wait,
    onAmbiguous,
    maxRequestBytes: 64 * 1024,
    concurrency: 4,
    retry: { baseDelayMs: 20, maxDelayMs: 200 },
    logger: (e: HarnessEvent) => {
      if (e.type === 'request') attempts.requests++;
      if (e.type === 'response') attempts.answered++;
      if (e.type === 'response' && e.status >= 400) attempts.refused++;
    },
  };
  sb.setFaults({ tinybird: FAULTS });
  let chunks = 0;
  const pending = [{ first: 1, last: ROWS }];
  let resent = 0;
  let stops = 0;
  for (let round = 0; pending.length > 0; round++) {
    expect(round).toBeLessThan(200);
    const range = pending.shift()!;
    const input = rows(event, range.first, range.last);
    const report: IngestReport = await ingestEvents(target, input, options);
    chunks += report.requests;
    expect(report.successful_rows + report.failed_rows + report.unknown_rows).toBe(report.rows);
    // Row numbers in the report are 1-based within this run's input.
    for (const f of [...report.failed, ...report.unknown]) pending.push({ first: range.first + f.first_row - 1, last: range.first + f.last_row - 1 });
    resent += report.failed_rows + report.unknown_rows;
    if (report.stopped) {
      stops++;
      const from = range.first + report.stopped.resume_from_row - 1;
      if (from <= range.last) pending.unshift({ first: from, last: range.last });
    } else {
      expect(report.rows).toBe(range.last - range.first + 1);
    }
  }
  sb.setFaults({});

  const counted = await executeTool('tinybird_query', {
    base_url: target.base_url,
    token: target.token,
    query: `SELECT count() AS n, uniqExact(user_id) AS users FROM events WHERE event = '${event}' FORMAT JSON`,
  });
  expect(counted.success).toBe(true);
  const [row] = (counted.success ? (counted.output as { data: unknown[] }).data : []) as { n: number | string; users: number | string }[];
  const n = Number(row?.n);
  const users = Number(row?.users);
  const dropped = attempts.requests - attempts.answered;
  family.note(
    `${label}: ${attempts.requests} HTTP requests for ${chunks} chunks; ${attempts.refused} answered 429/503 (retried, exactly-once) and ${dropped} dropped (${wait ? 'sent again: at-least-once in general, once here since these drops come before any write' : `${stops} stops, their rows reported unknown`}); ${resent} rows re-sent by the caller; ${n} rows in the Data Source, ${users} distinct`,
  );
  for (let i = 0; i < ROWS; i++) family.record(n === ROWS && users === ROWS);
  expect(n).toBe(ROWS);
  expect(users).toBe(ROWS);
  // The faults really happened: about one request in ten.
  expect(attempts.refused + dropped).toBeGreaterThan(attempts.requests * 0.05);
  if (onAmbiguous === 'stop') expect(stops).toBeGreaterThan(0);
  expect(unhandled.seen).toEqual([]);
}, 120_000);
