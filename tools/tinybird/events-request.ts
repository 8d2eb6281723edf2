import type { HttpRequestSpec } from '../../src/harness/types.js';
import { authHeaders, tinybirdUrl } from './shared.js';

export interface EventsTarget {
  base_url: string;
  token: string;
  datasource: string;
}

/** The per-request cap of the Events API on the Free plan; larger bodies answer 413. */
export const DEFAULT_MAX_REQUEST_BYTES = 10 * 1000 * 1000;

/**
 * Requests in flight at once when data is split. The Events API takes 20 MB/s per Data
 * Source, so two 10 MB requests keep it busy; each one more costs a 10 MB buffer.
 */
export const DEFAULT_INGEST_CONCURRENCY = 2;

/**
 * One POST to `/v0/events`. Without `wait`, only a 429 or a 503 (nothing ingested) is
 * retried, and the retry goes with `wait=true`, so a fault on the retry itself can be
 * retried again without duplicating rows.
 */
export function eventsRequest(
  target: EventsTarget,
  body: string | Uint8Array,
  { wait, gzip }: { wait: boolean; gzip: boolean },
): HttpRequestSpec {
  return {
    method: 'POST',
    url: tinybirdUrl(target.base_url, '/v0/events'),
    query: { name: target.datasource, wait: wait ? 'true' : undefined },
    headers: authHeaders(target.token),
    body: { ndjson: body },
    gzip,
    safeToRetry: wait,
    nothingDoneStatuses: [503],
    retryQuery: wait ? undefined : { wait: 'true' },
  };
}

/** Row counts from an Events API answer. */
export function rowCounts(body: unknown): { successful_rows: number; quarantined_rows: number } {
  const counts = body as { successful_rows?: unknown; quarantined_rows?: unknown } | undefined;
  return { successful_rows: counts?.successful_rows as number, quarantined_rows: counts?.quarantined_rows as number };
}
