/**
 * Hostile ingest: what `ingestEvents` does when the service races, refuses or cuts it off,
 * checked by counting rows in the real sandbox's Data Sources.
 * - Fresh Data Sources: the first requests race on creating it (409 "being created"):
 *   every row lands once.
 * - Refusals no retry can change (wrong token, read-only token, wrong path, dead port):
 *   the run stops after the requests in flight, with nothing written and row 1 to resume from.
 * - A connection cut after the sandbox wrote the rows (a proxy in front of it answers by
 *   closing the socket): `onAmbiguous: 'stop'` names the rows as unknown and resuming lands
 *   every row once; `'retry'` names the rows that landed twice.
 */
import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { ingestEvents, type IngestOptions, type RowRange } from '../../tools/tinybird/index.js';
import { hostileTally } from './tally.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const family = hostileTally('ingest');
const FAST = { retry: { baseDelayMs: 20, maxDelayMs: 100 } };

let sb: Sandbox;
let admin: string;
beforeAll(async () => {
  sb = await startSandbox({ tinybird: { eventsPerSecond: 100_000 } });
  admin = sb.credentials.tinybird.adminToken;
});
afterAll(async () => {
  await sb?.close();
  family.save();
});

function* rows(first: number, last: number) {
  for (let i = first; i <= last; i++) yield { timestamp: '2026-11-22 10:00:00', event: 'hostile', user_id: `u${i}`, n: i };
}

async function counted(datasource: string): Promise<{ n: number; distinct: number }> {
  const result = await executeTool('tinybird_query', {
    base_url: sb.urls.tinybird,
    token: admin,
    query: `SELECT count() AS n, uniqExact(user_id) AS d FROM ${datasource} FORMAT JSON`,
  });
  if (!result.success) return { n: 0, distinct: 0 };
  const [row] = (result.output as { data: { n: number | string; d: number | string }[] }).data;
  return { n: Number(row?.n), distinct: Number(row?.d) };
}

function requestLog() {
  const log = { requests: 0, statuses: [] as number[] };
  return { log, logger: (e: HarnessEvent) => (e.type === 'request' ? log.requests++ : e.type === 'response' && log.statuses.push(e.status)) };
}

const sizeOf = (ranges: RowRange[]) => ranges.reduce((n, r) => n + r.last_row - r.first_row + 1, 0);

describe('fresh Data Sources: requests racing on creation', () => {
  const RUNS = 10;
  const ROWS = 20_000;
  it(`${RUNS} runs of ${ROWS} rows, sent by two writers at once at the default concurrency, land every row once`, async () => {
    let conflicts = 0;
    const landed: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const datasource = `fresh_${run}`;
      const { log, logger } = requestLog();
      // Two writers: each sends its first request alone (it may create the Data Source), so
      // the race left is the other writer's, answered 409 "being created" and retried.
      // Small requests, so several go out before the Data Source exists.
      const options = { maxRequestBytes: 16 * 1024, logger, ...FAST };
      const half = ROWS / 2;
      const reports = await Promise.all([
        ingestEvents({ base_url: sb.urls.tinybird, token: admin, datasource }, rows(1, half), options),
        ingestEvents({ base_url: sb.urls.tinybird, token: admin, datasource }, rows(half + 1, ROWS), options),
      ]);
      conflicts += log.statuses.filter((s) => s === 409).length;
      const { n, distinct } = await counted(datasource);
      landed.push(n);
      const allIn = reports.every((r) => r.successful_rows === half && !r.stopped && r.failed.length === 0);
      expect(family.record(n === ROWS && distinct === ROWS && allIn)).toBe(true);
    }
    // The race really happened.
    expect(conflicts).toBeGreaterThan(0);
    family.note(`fresh Data Sources: ${RUNS} runs of ${ROWS} rows by two writers at once, each at concurrency 2 after its first request; ${conflicts} answers 409 "being created", retried; rows in per run: ${landed.join(', ')} (each ${ROWS} distinct)`);
  }, 60_000);
});

describe('refusals no retry can change', () => {
  const ROWS = 20_000;
  async function deadPort() {
    const server = createServer();
    const { port } = await listenOnLoopback(server);
    await new Promise((resolve) => server.close(resolve));
    return `http://127.0.0.1:${port}/tinybird`;
  }
  const kinds: [string, () => Promise<{ base_url: string; token: string }>][] = [
    ['wrong token', async () => ({ base_url: sb.urls.tinybird, token: 'p.not-a-sandbox-token' })],
    ['read-only token', async () => ({ base_url: sb.urls.tinybird, token: sb.credentials.tinybird.readToken })],
    ['wrong path (404)', async () => ({ base_url: `${sb.urls.tinybird}/nope`, token: admin })],
    ['dead port', async () => ({ base_url: await deadPort(), token: admin })],
  ];
  it.each(kinds)('%s: stops after the requests in flight, nothing written, resume from row 1', async (kind, endpoint) => {
    const datasource = `refused_${kind.replace(/\W+/g, '_')}`;
    const { log, logger } = requestLog();
    const report = await ingestEvents({ ...(await endpoint()), datasource }, rows(1, ROWS), { maxRequestBytes: 16 * 1024, logger, ...FAST });
    const inputBytes = [...rows(1, ROWS)].reduce((n, row) => n + JSON.stringify(row).length + 1, 0);
    const chunks = Math.ceil(inputBytes / (16 * 1024));
    const ok =
      report.requests <= 2 &&
      report.successful_rows === 0 &&
      report.stopped?.resume_from_row === 1 &&
      report.stopped.not_sent_from_row === report.failed_rows + 1 &&
      (await counted(datasource)).n === 0;
    family.note(`refused, ${kind}: ${report.requests} chunks answered (${log.requests} HTTP requests) of about ${chunks} before stopping; ${report.failed_rows} rows refused, rows from ${report.stopped?.not_sent_from_row} not sent; 0 rows in`);
    expect(family.record(ok)).toBe(true);
  }, 20_000);
});

/** A proxy in front of the sandbox that lets the first `cuts` requests through, then closes their socket instead of answering. */
async function cuttingProxy(target: URL, cuts: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    // The sandbox answers only its own Host (no DNS rebinding), so the proxy names it, as a reverse proxy does.
    const headers = { ...req.headers, host: target.host };
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      if (cuts > 0) {
        cuts--;
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  const serverAddress = await listenOnLoopback(server);
  return {
    url: `${serverAddress.origin}${target.pathname}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a connection cut after the rows were written (wait=true)', () => {
  const ROWS = 2_000;
  const options: IngestOptions = { wait: true, concurrency: 1, maxRequestBytes: 32 * 1024, ...FAST };

  it("onAmbiguous 'stop': the cut chunk is unknown and the run stops; checking it and resuming lands every row once", async () => {
    const proxy = await cuttingProxy(new URL(sb.urls.tinybird), 1);
    const target = { base_url: proxy.url, token: admin, datasource: 'cut_stop' };
    const { log, logger } = requestLog();
    const report = await ingestEvents(target, rows(1, ROWS), { ...options, onAmbiguous: 'stop', logger });
    const [unknown] = report.unknown;
    const afterCut = await counted('cut_stop');
    // The careful user's next step: the unknown rows are in (checked above), so resume after them.
    const resumed = await ingestEvents(target, rows(1, ROWS), { ...options, skipRows: report.stopped!.resume_from_row - 1 });
    const final = await counted('cut_stop');
    await proxy.close();
    const ok =
      report.unknown.length === 1 &&
      unknown!.first_row === 1 &&
      log.requests === 1 &&
      report.stopped?.resume_from_row === unknown!.last_row + 1 &&
      afterCut.n === unknown!.last_row &&
      resumed.skipped_rows === unknown!.last_row &&
      final.n === ROWS &&
      final.distinct === ROWS;
    family.note(
      `cut after write, onAmbiguous stop: 1 request sent, rows ${unknown?.first_row}-${unknown?.last_row} reported unknown (${report.unknown_rows} rows; ${afterCut.n} found in), run stopped; resumed from row ${report.stopped?.resume_from_row}: ${final.n} rows in, ${final.distinct} distinct`,
    );
    expect(family.record(ok)).toBe(true);
  }, 20_000);

  it("onAmbiguous 'retry': the cut chunk is sent again and named as maybe duplicated; exactly those rows are in twice", async () => {
    const proxy = await cuttingProxy(new URL(sb.urls.tinybird), 1);
    const { log, logger } = requestLog();
    const report = await ingestEvents({ base_url: proxy.url, token: admin, datasource: 'cut_retry' }, rows(1, ROWS), { ...options, onAmbiguous: 'retry', logger });
    const { n, distinct } = await counted('cut_retry');
    await proxy.close();
    const twice = sizeOf(report.maybe_duplicated);
    const ok = report.maybe_duplicated.length === 1 && report.maybe_duplicated[0]!.first_row === 1 && twice > 0 && n === ROWS + twice && distinct === ROWS && !report.stopped;
    family.note(`cut after write, onAmbiguous retry: ${log.requests} requests; rows 1-${twice} named maybe duplicated; ${n} rows in, ${distinct} distinct (at-least-once)`);
    expect(family.record(ok)).toBe(true);
  }, 20_000);
});
