import { clampWait, headerCount, headerTime } from './header-figures.js';
import type { RateLimitInfo } from '../types.js';

/** Services disagree on a reset's unit: Tinybird sends seconds from now, others an epoch in seconds or ms. */
function resetToMs(n: number, now: number): number {
  if (n < 1e9) return now + n * 1000; // seconds from now
  if (n < 1e12) return n * 1000; // epoch seconds
  return n; // epoch milliseconds
}

const secondsToMs = (n: number, now: number) => now + n * 1000;

/**
 * Reads a reset header (seconds from now, epoch seconds or ms, or a date) into an absolute
 * time, at most a day from `now`.
 */
export function parseResetHeader(value: string | undefined, now = Date.now()): number | undefined {
  return headerTime(value, now, resetToMs);
}

/** `Retry-After` in seconds or as an HTTP date, as a delay in ms from now (at most a day). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  const at = headerTime(value, now, secondsToMs);
  return at === undefined ? undefined : clampWait(at - now);
}

/** The `X-RateLimit-*` headers (and their `RateLimit-*` spelling) as `meta.rateLimit`, clamped. */
export function parseRateLimit(headers: Record<string, string>, now = Date.now()): RateLimitInfo | undefined {
  // Constant names: a name built per call is a fresh string to hash on every response.
  const limit = headerCount(headers['x-ratelimit-limit'] ?? headers['ratelimit-limit']);
  const remaining = headerCount(headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining']);
  const reset = parseResetHeader(headers['x-ratelimit-reset'] ?? headers['ratelimit-reset'], now);
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined;
  const info: RateLimitInfo = {};
  if (limit !== undefined) info.limit = limit;
  // More left than the limit allows is a contradiction: believe the smaller.
  if (remaining !== undefined) info.remaining = limit === undefined ? remaining : Math.min(remaining, limit);
  if (reset !== undefined) info.resetAt = new Date(reset).toISOString();
  return info;
}
