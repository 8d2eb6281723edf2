import { parseResetHeader, parseRetryAfter } from '../pace/rate-limit.js';
import type { RetryOptions } from '../types.js';

export const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
});

export function retrySettings(option: false | RetryOptions | undefined): Required<RetryOptions> {
  if (option === undefined) return DEFAULT_RETRY;
  if (option === false) return { ...DEFAULT_RETRY, maxAttempts: 1 };
  return { ...DEFAULT_RETRY, ...option };
}

/** What went wrong with one attempt, as far as the retry rule cares. */
export type AttemptOutcome =
  | { kind: 'status'; status: number; headers: Record<string, string> }
  | { kind: 'network' }
  | { kind: 'timeout' };

export interface RetryContext {
  /** The call can be repeated without doing its work twice. */
  safe: boolean;
  /** Statuses after which the service did nothing, so a retry is safe whatever the call. */
  nothingDoneStatuses?: readonly number[];
}

/**
 * A 429 means the service refused before doing anything, so it is retried on every call.
 * 5xx, 408, time-outs and network faults may have happened after the work was done, so
 * they are retried only on calls that are safe to repeat.
 */
export function isRetryable(outcome: AttemptOutcome, ctx: RetryContext): boolean {
  if (outcome.kind !== 'status') return ctx.safe;
  const { status } = outcome;
  if (status === 429) return true;
  if (ctx.nothingDoneStatuses?.includes(status)) return true;
  return ctx.safe && (status >= 500 || status === 408);
}

/** Exponential backoff with jitter: a random delay in the upper half of the step. */
export function backoffMs(attempt: number, settings: Required<RetryOptions>, random = Math.random): number {
  const step = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * How long the service asked us to wait: `Retry-After` (seconds or HTTP date), else the
 * rate-limit reset header; undefined when it said nothing.
 */
export function serverDelayMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const retryAfter = parseRetryAfter(headers['retry-after'], now);
  if (retryAfter !== undefined) return retryAfter;
  const reset = parseResetHeader(headers['x-ratelimit-reset'] ?? headers['ratelimit-reset'], now);
  return reset === undefined ? undefined : Math.max(0, reset - now);
}

/** The wait before the next attempt, after `attempt` attempts have failed. */
export function retryDelayMs(
  attempt: number,
  outcome: AttemptOutcome,
  settings: Required<RetryOptions>,
  random = Math.random,
): number {
  const asked = outcome.kind === 'status' ? serverDelayMs(outcome.headers) : undefined;
  return asked ?? backoffMs(attempt, settings, random);
}
