import { backoffMs, ToolFailure, type RetryOptions, type ToolError } from '../../../src/kit.js';
import type { OnAmbiguous } from './events-request.js';

/** Where a chunk's rows are after its request finally failed (whether the run stops is `stopsRun`). */
export type FailureVerdict =
  /** Not in: refused before any work (400, 401, 413, a 409 or 503 after every retry, a refused connection). */
  | 'failed'
  /** Maybe in: a connection cut, a time-out, a gateway error, a 422 (partly written). */
  | 'unknown';

export type ChunkResult<T> =
  | { ok: true; value: T; retriedAfterAmbiguous: boolean }
  | {
      ok: false;
      error: ToolError;
      verdict: FailureVerdict;
      /** The last answer is one no retry can change (401, 403, 404, a refused connection): the run stops, even when an earlier attempt left the rows' outcome unknown. */
      stopsRun: boolean;
    };

export interface AttemptPolicy {
  onAmbiguous: OnAmbiguous;
  /** The first attempt asks for `wait=true`; retries always do. */
  wait: boolean;
  retry: Required<RetryOptions>;
  sleep(ms: number): Promise<void>;
}

/**
 * The Events API's answer to a first ingest while another request is creating the Data
 * Source (reference §4.1: 409, auto-creation race, retry): nothing was written. Any other
 * 409 is a real conflict, so the service's own words decide, not the status alone.
 */
export function isCreationRace(error: ToolError): boolean {
  return error.status === 409 && /\bis being created\b/i.test(error.message) && /\bretry\b/i.test(error.message);
}

/** No connection was opened, so nothing was sent. */
export function isConnectionRefused(error: ToolError): boolean {
  return error.code === 'network' && /\bECONNREFUSED\b/.test(error.message);
}

type FailureKind = 'nothing-done' | 'ambiguous' | 'partial' | 'fatal' | 'failed';

function kindOf(error: ToolError, waited: boolean): FailureKind {
  if (isCreationRace(error) || isConnectionRefused(error)) return 'nothing-done';
  if (error.status === 401 || error.status === 403 || error.status === 404) return 'fatal';
  if (error.status === 422) return 'partial';
  if (error.code === 'network' || error.code === 'timeout' || error.code === 'invalid_response') return 'ambiguous';
  // The harness already retried 503s (and, with `wait=true`, 500s): what is left is not in.
  const nothingDone = error.status === 503 || (waited && error.status === 500);
  return error.status !== undefined && error.status >= 500 && !nothingDone ? 'ambiguous' : 'failed';
}

/**
 * Sends one chunk (`send(isRetry)`; a retry asks for `wait=true`) until it gets in or no
 * retry may help. On top of the harness's own retries (429, 503), this retries what the
 * harness cannot tell apart by status: a 409 "being created" and a refused connection, both
 * before any work; and, only with `onAmbiguous: 'retry'`, a fault whose outcome is unknown.
 */
export async function sendChunkWithRetries<T>(send: (isRetry: boolean) => Promise<T>, policy: AttemptPolicy): Promise<ChunkResult<T>> {
  let ambiguous = false;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    let error: ToolError;
    let kind: FailureKind;
    try {
      return { ok: true, value: await send(attempt > 1), retriedAfterAmbiguous: ambiguous };
    } catch (thrown) {
      if (!(thrown instanceof ToolFailure)) throw thrown;
      error = thrown.error;
      // Stopped by the caller (Ctrl-C) while the request was out: it may have got in, and the run ends.
      if (error.code === 'aborted') return { ok: false, error, verdict: 'unknown', stopsRun: true };
      kind = kindOf(error, policy.wait || attempt > 1 || (thrown.attempt ?? 1) > 1);
    }
    // Once an attempt may have written the rows, they stay "maybe in" whatever follows.
    ambiguous ||= kind === 'ambiguous' || kind === 'partial';
    const retryable = kind === 'nothing-done' || (kind === 'ambiguous' && policy.onAmbiguous === 'retry');
    // A Data Source being created by another request is ready when that request ends, however
    // long it takes: these retries cost nothing, so they are bounded by time, not by count.
    const givenUp = isCreationRace(error) ? Date.now() - started >= policy.retry.maxRetryAfterMs : attempt >= policy.retry.maxAttempts;
    if (!retryable || givenUp) {
      return { ok: false, error, verdict: ambiguous ? 'unknown' : 'failed', stopsRun: kind === 'fatal' || isConnectionRefused(error) };
    }
    try {
      await policy.sleep(backoffMs(attempt, policy.retry));
    } catch {
      // Stopped while waiting to send again: the rows are where the last attempt left them.
      const stopped: ToolError = { code: 'aborted', message: 'the call was aborted while waiting to retry', retryable: false };
      return { ok: false, error: stopped, verdict: ambiguous ? 'unknown' : 'failed', stopsRun: true };
    }
  }
}
