import { ToolFailure } from '../../src/harness/errors.js';
import { forEachConcurrent } from '../../src/harness/for-each-concurrent.js';
import type { HttpRequestSpec, HttpResponse, ToolError } from '../../src/harness/types.js';
import { eventsRequest, rowCounts, type EventsTarget } from './events-request.js';
import type { NdjsonChunk } from './ndjson-chunker.js';

export interface FailedChunk {
  /** 1-based rows of the input that did not get in. */
  first_row: number;
  last_row: number;
  error: ToolError;
}

export interface IngestProgress {
  /** Rows and bytes of the chunks that have been answered (ingested or failed). */
  rows: number;
  bytes: number;
  requests: number;
  successful_rows: number;
  quarantined_rows: number;
  failed_rows: number;
}

export interface IngestReport extends IngestProgress {
  failed: FailedChunk[];
}

export interface SendChunksOptions {
  wait: boolean;
  gzip: boolean;
  concurrency: number;
  send(request: HttpRequestSpec): Promise<HttpResponse>;
  onProgress?(progress: IngestProgress): void;
}

/**
 * Sends NDJSON chunks to the Events API with bounded concurrency and sums the answers. A
 * chunk that finally fails is recorded with its row range and the rest go on; only an
 * abort stops the run.
 */
export async function sendChunks(
  chunks: Iterable<NdjsonChunk> | AsyncIterable<NdjsonChunk>,
  target: EventsTarget,
  options: SendChunksOptions,
): Promise<IngestReport> {
  const report: IngestReport = {
    rows: 0,
    bytes: 0,
    requests: 0,
    successful_rows: 0,
    quarantined_rows: 0,
    failed_rows: 0,
    failed: [],
  };
  await forEachConcurrent(chunks, options.concurrency, async (chunk) => {
    try {
      const response = await options.send(eventsRequest(target, chunk.body, options));
      const counts = rowCounts(response.body);
      report.successful_rows += Number(counts.successful_rows) || 0;
      report.quarantined_rows += Number(counts.quarantined_rows) || 0;
    } catch (error) {
      if (!(error instanceof ToolFailure) || error.error.code === 'aborted') throw error;
      report.failed_rows += chunk.rows;
      report.failed.push({ first_row: chunk.firstRow, last_row: chunk.firstRow + chunk.rows - 1, error: error.error });
    } finally {
      chunk.release?.();
    }
    report.rows += chunk.rows;
    report.bytes += chunk.body.length;
    report.requests++;
    if (options.onProgress) {
      const { failed: _failed, ...progress } = report;
      options.onProgress(progress);
    }
  });
  report.failed.sort((a, b) => a.first_row - b.first_row);
  return report;
}
