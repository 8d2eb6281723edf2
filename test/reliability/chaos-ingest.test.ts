/**
 * Chaos ingest: 200,000 rows through `ingestEvents` into the sandbox while 10% of requests
 * fail (dropped connections, 429, 503), then the Data Source holds each row exactly once.
 *
 * What the sandbox guarantees: it decides a fault before it reads the request, so a faulted
 * request never wrote anything. Every request goes with `wait=true`, which makes the
 * harness's retries safe; a chunk that fails all its attempts comes back in `report.failed`
 * with its rows, and those ranges are sent again (safe here for the same reason).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
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
 * With `wait: true` the harness retries every fault; with `wait: false` a dropped connection
 * is not retried (the rows may or may not be in) and comes back in `report.failed`: the
 * sandbox decides faults before reading, so re-sending those ranges is safe here.
 */
it.each([
  ['wait: true', true],
  ['wait: false, re-sending report.failed', false],
] as const)('200,000 rows, one request in ten failing, land exactly once: %s', async (label, wait) => {
  const event = wait ? 'chaos_wait' : 'chaos_nowait';
  const target = { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken, datasource: 'events' };
  const attempts = { requests: 0, answered: 0, refused: 0 };
  const options = {
    wait,
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
  let pending = [{ first: 1, last: ROWS }];
  let resent = 0;
  for (let round = 0; pending.length > 0; round++) {
    expect(round).toBeLessThan(10);
    const next: typeof pending = [];
    for (const range of pending) {
      const report: IngestReport = await ingestEvents(target, rows(event, range.first, range.last), options);
      chunks += report.requests;
      expect(report.rows).toBe(range.last - range.first + 1);
      expect(report.successful_rows + report.failed_rows).toBe(report.rows);
      // Row numbers in `failed` are 1-based within this run's input.
      for (const f of report.failed) next.push({ first: range.first + f.first_row - 1, last: range.first + f.last_row - 1 });
    }
    if (round > 0) resent += pending.reduce((n, r) => n + r.last - r.first + 1, 0);
    pending = next;
  }
  sb.setFaults({});

  const counted = await executeTool('tinybird_query', {
    ...target,
    query: `SELECT count() AS n, uniqExact(user_id) AS users FROM events WHERE event = '${event}' FORMAT JSON`,
  });
  expect(counted.success).toBe(true);
  const [row] = (counted.success ? (counted.output as { data: unknown[] }).data : []) as { n: number | string; users: number | string }[];
  const n = Number(row?.n);
  const users = Number(row?.users);
  const dropped = attempts.requests - attempts.answered;
  family.note(
    `${label}: ${attempts.requests} HTTP requests for ${chunks} chunks; ${attempts.refused} answered 429/503 and ${dropped} dropped; ${resent} rows re-sent; ${n} rows in the Data Source, ${users} distinct`,
  );
  for (let i = 0; i < ROWS; i++) family.record(n === ROWS && users === ROWS);
  expect(n).toBe(ROWS);
  expect(users).toBe(ROWS);
  // The faults really happened: about one request in ten.
  expect(attempts.refused + dropped).toBeGreaterThan(attempts.requests * 0.05);
  if (!wait) expect(resent).toBeGreaterThan(0);
  expect(unhandled.seen).toEqual([]);
}, 120_000);
