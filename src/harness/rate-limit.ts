import type { RateLimitInfo } from './types.js';

function num(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Reads a reset header into an absolute time. Services disagree on its unit: Tinybird
 * sends seconds from now, others an epoch in seconds or milliseconds, or a date.
 */
export function parseResetHeader(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = num(value);
  if (n === undefined) {
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : date;
  }
  if (n < 1e9) return now + n * 1000; // seconds from now
  if (n < 1e12) return n * 1000; // epoch seconds
  return n; // epoch milliseconds
}

/** `Retry-After` in seconds or as an HTTP date, as a delay in ms from now. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = num(value);
  if (seconds !== undefined) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The `X-RateLimit-*` headers (and their `RateLimit-*` spelling) as `meta.rateLimit`. */
export function parseRateLimit(headers: Record<string, string>, now = Date.now()): RateLimitInfo | undefined {
  // Constant names: a name built per call is a fresh string to hash on every response.
  const limit = num(headers['x-ratelimit-limit'] ?? headers['ratelimit-limit']);
  const remaining = num(headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining']);
  const reset = parseResetHeader(headers['x-ratelimit-reset'] ?? headers['ratelimit-reset'], now);
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined;
  const info: RateLimitInfo = {};
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (reset !== undefined) info.resetAt = new Date(reset).toISOString();
  return info;
}
