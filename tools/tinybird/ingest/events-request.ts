import { z } from 'zod';
import type { HttpRequestSpec } from '../../../src/kit.js';
import { connection } from '../connection.js';

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
 * What to do when a request's outcome is unknown (a connection cut, a time-out, a gateway
 * error): the rows may already be written, and the Events API has no idempotency key.
 * `retry` sends them again (at-least-once: they may land twice); `stop` does not, reports
 * them as `unknown` and stops the run. Default `stop`: why, in docs/decisions.md
 * ("After an ambiguous fault, an ingest stops by default").
 */
export type OnAmbiguous = 'retry' | 'stop';
export const DEFAULT_ON_AMBIGUOUS: OnAmbiguous = 'stop';

/** The service's "nothing ingested" answer; with `wait=true` a 500 is a database error it surfaced, before any write. */
const NOTHING_DONE = [503];
const NOTHING_DONE_WITH_WAIT = [500, 503];

/**
 * One POST to `/v0/events`. The harness retries only answers after which nothing was
 * written (429, 503, and a 500 with `wait=true`); its retries go with `wait=true`. A fault
 * whose outcome is unknown comes back to the caller, which decides (`OnAmbiguous`).
 */
export function eventsRequest(
  target: EventsTarget,
  body: string | Uint8Array,
  { wait, gzip }: { wait: boolean; gzip: boolean },
): HttpRequestSpec {
  // Options are not read: the Events API's base URL is always the target's own.
  return connection.request(target, NO_OPTIONS, {
    method: 'POST',
    path: '/v0/events',
    query: { name: target.datasource, wait: wait ? 'true' : undefined },
    body: { ndjson: body },
    gzip,
    nothingDoneStatuses: wait ? NOTHING_DONE_WITH_WAIT : NOTHING_DONE,
    retryQuery: wait ? undefined : { wait: 'true' },
    retryNothingDoneStatuses: NOTHING_DONE_WITH_WAIT,
  });
}

const NO_OPTIONS = Object.freeze({});

/** An Events API answer: how many rows went in, and how many to quarantine. */
export const eventsAnswer = z.looseObject({ successful_rows: z.number(), quarantined_rows: z.number() });

/** Row counts from a chunk's answer; one without them counts none (the report counts rows sent, not answers). */
export function rowCounts(body: unknown): { successful_rows: number; quarantined_rows: number } {
  const counts = eventsAnswer.safeParse(body);
  return counts.success ? counts.data : { successful_rows: 0, quarantined_rows: 0 };
}
