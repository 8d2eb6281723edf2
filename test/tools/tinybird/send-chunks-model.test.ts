/**
 * The split ingest's chunk accounting as a model-based test (fast-check, issue 34). Random
 * inputs (chunks of 1–3 rows, a concurrency, `on_ambiguous`, rows to skip), a random script of
 * answers per chunk (a 202, a cut connection, a 500, a 502, a 422, a 503, a 400, a 401, a refused
 * connection, a 409 "being created") and a random order in which the requests in flight are
 * answered. After every answer: no chunk is sent for the first time once an answer has stopped
 * the run. At the end: every row of the input is in exactly one place — skipped, ingested,
 * failed (not in), unknown (maybe in) or not sent — as the answers say, the report's figures
 * add up, and the run is a success only when every row is known to be in.
 * fast-check prints the seed, the run count and the shrunk input on a failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failure, retrySettings, type HttpRequestSpec, type HttpResponse, type ToolFailure } from '../../../src/kit.js';
import type { NdjsonChunk } from '../../../tools/tinybird/ingest/ndjson-chunker.js';
import { sendChunks, type IngestReport, type RowRange } from '../../../tools/tinybird/ingest/send-chunks.js';

const KINDS = ['ok', 'cut', 'http500', 'http502', 'http422', 'http503', 'http400', 'http401', 'refused', 'race409'] as const;
type Kind = (typeof KINDS)[number];

function outcome(kind: Kind, rows: number): HttpResponse | ToolFailure {
  switch (kind) {
    case 'ok':
      return { status: 202, headers: {}, body: { successful_rows: rows, quarantined_rows: 0 }, bodyKind: 'json' };
    case 'cut':
      return failure('network', 'other side closed', { retryable: true });
    case 'http500':
      return failure('upstream_error', 'Internal error', { status: 500, retryable: true });
    case 'http502':
      return failure('upstream_error', 'Bad gateway', { status: 502, retryable: true });
    case 'http422':
      return failure('upstream_error', 'some rows were written', { status: 422 });
    case 'http503':
      return failure('upstream_error', 'Service temporarily unavailable, no data ingested', { status: 503, retryable: true });
    case 'http400':
      return failure('invalid_params', 'Bad events', { status: 400 });
    case 'http401':
      return failure('unauthorized', 'Invalid token', { status: 401 });
    case 'refused':
      return failure('network', 'connect ECONNREFUSED 127.0.0.1:443', { retryable: true });
    case 'race409':
      return failure('conflict', 'Data Source events is being created, please retry', { status: 409, retryable: true });
  }
}

/** Whether an answer may have written the rows (the first attempt goes without wait=true; a retry with it). */
const mayHaveWritten = (kind: Kind, attempt: number) => kind === 'cut' || kind === 'http502' || kind === 'http422' || (kind === 'http500' && attempt === 1);
/** Answers that may be sent again at no risk: nothing was done. */
const nothingDone = (kind: Kind) => kind === 'refused' || kind === 'race409';

interface Chunk {
  firstRow: number;
  rows: number;
  /** The answer to each attempt; past the end of the script, a 202. */
  script: Kind[];
}

interface Input {
  chunks: Chunk[];
  concurrency: number;
  onAmbiguous: 'retry' | 'stop';
  skip: number;
  order: number[];
}

const MAX_ATTEMPTS = 3;

const input: fc.Arbitrary<Input> = fc
  .record({
    sizes: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 7 }),
    scripts: fc.array(fc.array(fc.constantFrom(...KINDS), { maxLength: 3 }), { minLength: 7, maxLength: 7 }),
    concurrency: fc.integer({ min: 1, max: 4 }),
    onAmbiguous: fc.constantFrom('retry' as const, 'stop' as const),
    skip: fc.nat(4),
    order: fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
  })
  .map(({ sizes, scripts, concurrency, onAmbiguous, skip, order }) => {
    let next = 1;
    const chunks = sizes.map((rows, i) => {
      const chunk = { firstRow: next, rows, script: scripts[i]! };
      next += rows;
      return chunk;
    });
    // Skip whole chunks only (the cut of a chunk at a row is the chunker's, tested on its own).
    const total = next - 1;
    const skipped = chunks.filter((c) => c.firstRow + c.rows - 1 <= Math.min(skip, total)).reduce((n, c) => n + c.rows, 0);
    return { chunks, concurrency, onAmbiguous, skip: skipped, order };
  });

const settle = async () => {
  for (let k = 0; k < 8; k++) await new Promise((resolve) => setImmediate(resolve));
};

interface Sent {
  chunk: Chunk;
  attempt: number;
  answered?: Kind;
}

async function runModel(inp: Input): Promise<void> {
  const rowOf = new Map(inp.chunks.map((c) => [c.firstRow, c]));
  const sends: Sent[] = [];
  const waiting: { sent: Sent; resolve(r: HttpResponse): void; reject(e: unknown): void }[] = [];
  const body = (c: Chunk) => Array.from({ length: c.rows }, (_, k) => JSON.stringify({ row: c.firstRow + k })).join('\n') + '\n';
  function* source(): Generator<NdjsonChunk> {
    for (const c of inp.chunks) yield { body: Buffer.from(body(c)), firstRow: c.firstRow, rows: c.rows };
  }
  const send = (request: HttpRequestSpec) =>
    new Promise<HttpResponse>((resolve, reject) => {
      const text = Buffer.from((request.body as { ndjson: string | Uint8Array }).ndjson).toString();
      const chunk = rowOf.get((JSON.parse(text.split('\n')[0]!) as { row: number }).row)!;
      const sent: Sent = { chunk, attempt: sends.filter((s) => s.chunk === chunk).length + 1 };
      sends.push(sent);
      waiting.push({ sent, resolve, reject });
    });
  let report: IngestReport | undefined;
  let error: unknown;
  void sendChunks(source(), { base_url: 'https://api.tinybird.co', token: 'p.t', datasource: 'events' }, {
    wait: false,
    gzip: false,
    concurrency: inp.concurrency,
    onAmbiguous: inp.onAmbiguous,
    skipRows: inp.skip,
    retry: { ...retrySettings(undefined), maxAttempts: MAX_ATTEMPTS, maxRetryAfterMs: 60_000 },
    send,
    sleep: async () => {},
  }).then(
    (r) => void (report = r),
    (e: unknown) => void (error = e),
  );
  /** Sends up to this index went out before the run was stopped (undefined: not stopped). */
  let stoppedAt: number | undefined;
  for (let step = 0; report === undefined && error === undefined; step++) {
    await settle();
    if (report !== undefined || error !== undefined) break;
    expect(waiting.length, 'the run waits for nothing, yet has not ended').toBeGreaterThan(0);
    const [w] = waiting.splice(inp.order[step % inp.order.length]! % waiting.length, 1);
    const { sent } = w!;
    const kind = sent.chunk.script[sent.attempt - 1] ?? 'ok';
    sent.answered = kind;
    const before = sends.length;
    const answer = outcome(kind, sent.chunk.rows);
    if ('status' in answer && !(answer instanceof Error)) w!.resolve(answer);
    else w!.reject(answer);
    await settle();
    const retried = sends.some((s) => s.chunk === sent.chunk && s.attempt === sent.attempt + 1);
    const stops = kind === 'http401' || kind === 'refused' || (inp.onAmbiguous === 'stop' && mayHaveWritten(kind, sent.attempt));
    if (!retried && stops) stoppedAt ??= before;
    // After every step: no chunk sent for the first time after the answer that stopped the run.
    if (stoppedAt !== undefined) {
      const late = sends.slice(stoppedAt).filter((s) => s.attempt === 1);
      expect(late.map((s) => s.chunk.firstRow), `rows first sent after the run was stopped (${kind} on rows ${sent.chunk.firstRow}+)`).toEqual([]);
    }
  }
  expect(error).toBeUndefined();
  const r = report!;

  // Where each row is, from the answers alone.
  const expected = { ingested: 0, failed: [] as RowRange[], unknown: [] as RowRange[], maybeTwice: [] as RowRange[], sent: 0 };
  for (const c of inp.chunks) {
    const own = sends.filter((s) => s.chunk === c);
    if (own.length === 0) continue;
    expected.sent++;
    // At most MAX_ATTEMPTS, except after a 409 "being created" (retried for a time, not a count).
    for (const s of own) if (s.attempt > MAX_ATTEMPTS) expect(own[s.attempt - 2]!.answered).toBe('race409');
    // Only what may be sent again at no risk, or what on_ambiguous retry allows, is sent again.
    for (const s of own.slice(0, -1)) expect(nothingDone(s.answered!) || (inp.onAmbiguous === 'retry' && mayHaveWritten(s.answered!, s.attempt))).toBe(true);
    const last = own.at(-1)!.answered!;
    const range = { first_row: c.firstRow, last_row: c.firstRow + c.rows - 1 };
    const wrote = own.some((s) => mayHaveWritten(s.answered!, s.attempt));
    if (last === 'ok') {
      expected.ingested += c.rows;
      if (wrote) expected.maybeTwice.push(range);
    } else if (wrote) expected.unknown.push(range);
    else expected.failed.push(range);
  }
  const strip = (list: (RowRange & { error?: unknown })[]) => list.map(({ first_row, last_row }) => ({ first_row, last_row }));
  expect(r.successful_rows).toBe(expected.ingested);
  expect(strip(r.failed)).toEqual(expected.failed);
  expect(strip(r.unknown)).toEqual(expected.unknown);
  expect(r.maybe_duplicated).toEqual(expected.maybeTwice);
  expect(r.requests).toBe(expected.sent);
  expect(r.failed_rows).toBe(expected.failed.reduce((n, f) => n + f.last_row - f.first_row + 1, 0));
  expect(r.unknown_rows).toBe(expected.unknown.reduce((n, f) => n + f.last_row - f.first_row + 1, 0));
  expect(r.skipped_rows).toBe(inp.skip);
  const total = inp.chunks.reduce((n, c) => n + c.rows, 0);
  // Every row is skipped, answered (ingested, failed or unknown) or never sent, exactly once.
  const notSent = inp.chunks.filter((c) => c.firstRow > inp.skip && !sends.some((s) => s.chunk === c));
  expect(r.skipped_rows + r.rows + notSent.reduce((n, c) => n + c.rows, 0)).toBe(total);
  expect(r.rows).toBe(r.successful_rows + r.failed_rows + r.unknown_rows);
  if (notSent.length > 0) {
    expect(r.stopped, 'rows left unsent, yet the run says it did not stop').toBeDefined();
    expect(r.stopped!.not_sent_from_row).toBeLessThanOrEqual(Math.min(...notSent.map((c) => c.firstRow)));
  }
  if (r.stopped) {
    // No row from resume_from_row on is in, or may be.
    const inOrMaybe = inp.chunks.filter((c) => sends.some((s) => s.chunk === c && (s.answered === 'ok' || mayHaveWritten(s.answered!, s.attempt))));
    for (const c of inOrMaybe) expect(c.firstRow + c.rows - 1).toBeLessThan(r.stopped.resume_from_row);
    expect(stoppedAt, 'the run stopped on no answer that stops it').toBeDefined();
  } else {
    expect(stoppedAt, 'an answer that stops the run did not stop it').toBeUndefined();
  }
  // Success (what tinybird_events answers) only when every row is known to be in.
  const complete = r.failed.length === 0 && r.unknown.length === 0 && !r.stopped;
  expect(complete).toBe(expected.ingested === total - inp.skip);
}

describe('the split ingest\'s chunk accounting as a model (fast-check)', () => {
  it('random answers in a random order: every row in exactly one place, nothing sent after a stop, success only when all are in', async () => {
    await fc.assert(fc.asyncProperty(input, runModel), { numRuns: 200 });
  }, 60_000);
});
