import { forEachConcurrent, type HttpRequestSpec, type HttpResponse, type RetryOptions, type ToolError } from '../../../src/kit.js';
import { sendChunkWithRetries, type FailureVerdict } from './chunk-attempts.js';
import { eventsRequest, rowCounts, type EventsTarget, type OnAmbiguous } from './events-request.js';
import type { NdjsonChunk } from './ndjson-chunker.js';
import { skipRows } from './skip-rows.js';

/** 1-based rows of the input, both ends included. */
export interface RowRange {
  first_row: number;
  last_row: number;
}

export interface FailedChunk extends RowRange {
  error: ToolError;
}

export interface IngestProgress {
  /** Rows and bytes of the chunks that have been answered (ingested, failed or unknown). */
  rows: number;
  bytes: number;
  /** Bytes of the chunks the service took: the only ones a throughput figure should count. */
  ingested_bytes: number;
  requests: number;
  successful_rows: number;
  quarantined_rows: number;
  failed_rows: number;
  /** Rows whose outcome is unknown (see `unknown`). */
  unknown_rows: number;
  /** Rows and bytes passed over at the start (`skipRows`), not sent. */
  skipped_rows: number;
  skipped_bytes: number;
}

export interface IngestStop {
  /** The answer that stopped the run. */
  error: ToolError;
  /** The first row never sent: rows from here to the end of the input (if any) were not sent. */
  not_sent_from_row: number;
  /** No row from here on is in the Data Source: resume with `skipRows: resume_from_row - 1` (`--from-row`). */
  resume_from_row: number;
}

export interface IngestReport extends IngestProgress {
  /** Refused before any work: not in the Data Source, safe to send again. */
  failed: FailedChunk[];
  /** Outcome unknown (the connection was cut, a gateway error, a 422): check before sending again. */
  unknown: FailedChunk[];
  /** In, but only after a retry of an attempt whose outcome was unknown (`onAmbiguous: 'retry'`): may be in twice. */
  maybe_duplicated: RowRange[];
  /** Set when the run stopped early: at an answer no retry can change, an unknown outcome with `onAmbiguous: 'stop'`, or the caller's `signal` (rows out then are `unknown`). */
  stopped?: IngestStop;
}

export interface SendChunksOptions {
  wait: boolean;
  gzip: boolean;
  concurrency: number;
  onAmbiguous: OnAmbiguous;
  /** Rows at the start of the input not to send (counted as skipped). */
  skipRows?: number;
  retry: Required<RetryOptions>;
  send(request: HttpRequestSpec): Promise<HttpResponse>;
  sleep(ms: number): Promise<void>;
  onProgress?(progress: IngestProgress): void;
  /** Aborted (Ctrl-C): nothing more is read or sent, requests out are cut, and the report says where to resume. */
  signal?: AbortSignal;
}

const rangeOf = (chunk: NdjsonChunk): RowRange => ({ first_row: chunk.firstRow, last_row: chunk.firstRow + chunk.rows - 1 });

/** Chunks until `isStopped()`, checked before each read, so a stopped run reads no further. */
async function* untilStopped(chunks: AsyncIterable<NdjsonChunk>, isStopped: () => boolean): AsyncGenerator<NdjsonChunk> {
  if (isStopped()) return;
  for await (const chunk of chunks) {
    yield chunk;
    if (isStopped()) return;
  }
}

/**
 * Sends NDJSON chunks to the Events API with bounded concurrency and sums the answers. Each
 * chunk ends ingested, failed (not in) or unknown (maybe in), with its row range. At an
 * answer no retry can change (401, 403, 404, a refused connection) — or an unknown outcome
 * with `onAmbiguous: 'stop'` — it stops reading, lets the requests in flight finish, and
 * says from which row to resume.
 */
export async function sendChunks(
  chunks: Iterable<NdjsonChunk> | AsyncIterable<NdjsonChunk>,
  target: EventsTarget,
  options: SendChunksOptions,
): Promise<IngestReport> {
  const report: IngestReport = {
    rows: 0,
    bytes: 0,
    ingested_bytes: 0,
    requests: 0,
    successful_rows: 0,
    quarantined_rows: 0,
    failed_rows: 0,
    unknown_rows: 0,
    skipped_rows: 0,
    skipped_bytes: 0,
    failed: [],
    unknown: [],
    maybe_duplicated: [],
  };
  const progress = () => {
    if (!options.onProgress) return;
    const { failed: _f, unknown: _u, maybe_duplicated: _m, stopped: _s, ...figures } = report;
    options.onProgress(figures);
  };
  const skip = options.skipRows ?? 0;
  let nextRow = skip + 1;
  // Rows up to here may be in the Data Source (ingested or unknown); none after it are.
  let lastRowMaybeIn = skip;
  let stop: ToolError | undefined;
  const skipped = skipRows(chunks, skip, (rows, bytes) => {
    report.skipped_rows += rows;
    report.skipped_bytes += bytes;
    progress();
  });
  // The first request may be the one that creates the Data Source: the others wait for its
  // answer instead of racing it into 409 "being created" (still retried, for other writers).
  let first: Promise<void> | undefined;
  const { signal } = options;
  const aborted = (): ToolError => ({ code: 'aborted', message: 'the call was aborted', retryable: false });
  await forEachConcurrent(untilStopped(skipped, () => stop !== undefined || signal?.aborted === true), options.concurrency, async (chunk) => {
    if (!first) return (first = sendOne(chunk));
    await first.catch(() => undefined);
    if (stop) {
      // Stopped by the first answer: this chunk was read but is not sent.
      chunk.release?.();
      return;
    }
    return sendOne(chunk);
  });
  for (const list of [report.failed, report.unknown, report.maybe_duplicated]) list.sort((a, b) => a.first_row - b.first_row);
  // Aborted between requests: no answer said so, the signal did.
  if (signal?.aborted) stop ??= aborted();
  if (stop) report.stopped = { error: stop, not_sent_from_row: nextRow, resume_from_row: lastRowMaybeIn + 1 };
  return report;

  async function sendOne(chunk: NdjsonChunk): Promise<void> {
    if (signal?.aborted) {
      // Read before the abort, never sent: its rows are among those not sent.
      chunk.release?.();
      stop ??= aborted();
      return;
    }
    const range = rangeOf(chunk);
    nextRow = Math.max(nextRow, range.last_row + 1);
    let verdict: FailureVerdict | 'ingested';
    try {
      const result = await sendChunkWithRetries(
        (isRetry) => options.send(eventsRequest(target, chunk.body, { wait: options.wait || isRetry, gzip: options.gzip })),
        options,
      );
      if (result.ok) {
        verdict = 'ingested';
        const counts = rowCounts(result.value.body);
        report.successful_rows += Number(counts.successful_rows) || 0;
        report.quarantined_rows += Number(counts.quarantined_rows) || 0;
        report.ingested_bytes += chunk.body.length;
        if (result.retriedAfterAmbiguous) report.maybe_duplicated.push(range);
      } else {
        verdict = result.verdict;
        if (verdict === 'unknown') {
          report.unknown_rows += chunk.rows;
          report.unknown.push({ ...range, error: result.error });
        } else {
          report.failed_rows += chunk.rows;
          report.failed.push({ ...range, error: result.error });
        }
        if (result.stopsRun || (verdict === 'unknown' && options.onAmbiguous === 'stop')) stop ??= result.error;
      }
    } finally {
      chunk.release?.();
    }
    if (verdict === 'ingested' || verdict === 'unknown') lastRowMaybeIn = Math.max(lastRowMaybeIn, range.last_row);
    report.rows += chunk.rows;
    report.bytes += chunk.body.length;
    report.requests++;
    progress();
  }
}
