import { z } from 'zod';
import { createCallState, ownValue, Redactor, requiredMessage, sendRequest, ToolCallError, zodIssues, type ExecuteOptions } from '../../../src/kit.js';
import {
  DEFAULT_INGEST_CONCURRENCY,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_ON_AMBIGUOUS,
  type EventsTarget,
  type OnAmbiguous,
} from './events-request.js';
import { NdjsonChunker, type NdjsonChunk } from './ndjson-chunker.js';
import { NdjsonFile } from './read-ndjson-file.js';
import { sendChunks, type IngestProgress, type IngestReport } from './send-chunks.js';
import { baseUrlParam, tokenParam } from '../connection.js';
import { datasourceParam } from '../params.js';

export type { FailedChunk, IngestProgress, IngestReport, IngestStop, RowRange } from './send-chunks.js';
export type { OnAmbiguous } from './events-request.js';

export interface IngestOptions extends ExecuteOptions {
  /** Bytes per request, at most; the Events API refuses larger bodies with 413. Default 10 MB. */
  maxRequestBytes?: number;
  /** Requests in flight at once. Default 2 (the Events API takes 20 MB/s per Data Source). */
  concurrency?: number;
  gzip?: boolean;
  /** Wait for the database acknowledgment of every request. */
  wait?: boolean;
  /**
   * A request whose outcome is unknown (connection cut, time-out, gateway error) may have
   * written its rows: `'stop'` (default) reports them in `unknown` and stops the run;
   * `'retry'` sends them again, at-least-once, and names them in `maybe_duplicated`.
   */
  onAmbiguous?: OnAmbiguous;
  /** Rows at the start of the input not to send, to resume a stopped run (`report.stopped.resume_from_row - 1`). */
  skipRows?: number;
  /** Called after each request is answered. */
  onProgress?: (progress: IngestProgress) => void;
}

/** What `ingestEvents` reads: objects, or NDJSON text cut anywhere (a file stream works). */
export type EventSource = AsyncIterable<unknown> | Iterable<unknown>;

const targetSchema = z.object({ base_url: baseUrlParam, token: tokenParam, datasource: datasourceParam });
const choicesSchema = z.object({ skipRows: z.number().int().min(0).optional(), onAmbiguous: z.enum(['retry', 'stop']).optional() });

async function* chunksOf(source: EventSource, maxBytes: number): AsyncGenerator<NdjsonChunk> {
  const chunker = new NdjsonChunker(maxBytes, true);
  if (source instanceof NdjsonFile) {
    const reader = await source.openReader();
    try {
      for (let full = await chunker.fill(reader.read); full; full = await chunker.fill(reader.read)) yield* full;
    } finally {
      await reader.close();
    }
  } else {
    yield* chunksOfItems(chunker, source);
  }
  const last = chunker.flush();
  if (last) yield last;
}

async function* chunksOfItems(chunker: NdjsonChunker, source: EventSource): AsyncGenerator<NdjsonChunk> {
  for await (const item of source) {
    const bytes =
      item instanceof Uint8Array
        ? item
        : typeof item === 'string'
          ? Buffer.from(item)
          : Buffer.from(`${JSON.stringify(item)}\n`);
    yield* chunker.push(bytes);
  }
}

/**
 * Streams events of any size into a Data Source: splits them at line boundaries into
 * requests under the cap, gzips when asked, sends with bounded concurrency and sums the
 * row counts. Memory stays bounded (about `concurrency + 1` requests' worth). Every row
 * sent ends ingested, in `failed` (not in) or in `unknown` (maybe in), by range; at an
 * answer no retry can change it stops reading and says where to resume (`stopped`).
 */
export async function ingestEvents(
  target: EventsTarget,
  source: EventSource,
  options: IngestOptions = {},
): Promise<IngestReport> {
  // The same words as executeTool's: a missing token is `token: required (expected string)`.
  const parsed = targetSchema.safeParse(target, { error: requiredMessage });
  const choices = choicesSchema.safeParse({ skipRows: options.skipRows, onAmbiguous: options.onAmbiguous }, { error: requiredMessage });
  // The target is the caller's, not yet checked: its token may be anything, or missing.
  const redactor = new Redactor([typeof target === 'object' && target !== null ? ownValue(target, 'token') : undefined]);
  if (!parsed.success || !choices.success) {
    const issues = [...(parsed.error ? zodIssues(parsed.error) : []), ...(choices.error ? zodIssues(choices.error) : [])];
    const what = parsed.success ? 'invalid ingest options' : 'invalid ingest target';
    const message = `${what}: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`;
    const error = { code: 'invalid_params' as const, message, retryable: false, issues };
    throw new ToolCallError('tinybird_events', redactor.value(error), { attempts: 0, durationMs: 0 });
  }
  // What is sent is the checked copy's token: a getter on the target may have answered differently.
  redactor.add([parsed.data.token]);
  const { maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES, concurrency = DEFAULT_INGEST_CONCURRENCY, gzip = false, wait = false } = options;
  const state = createCallState('tinybird_events', false, options, redactor);
  const report = await sendChunks(chunksOf(source, maxRequestBytes), parsed.data, {
    wait,
    gzip,
    concurrency,
    onAmbiguous: options.onAmbiguous ?? DEFAULT_ON_AMBIGUOUS,
    skipRows: options.skipRows,
    retry: state.retry,
    send: (request) => sendRequest(request, state),
    sleep: state.sleep,
    onProgress: options.onProgress,
    signal: options.signal,
  });
  return redactor.value(report);
}
