import { clampWait } from '../harness/pace/header-figures.js';
import { parseRateLimit, parseResetHeader, parseRetryAfter } from '../harness/pace/rate-limit.js';

/**
 * What one answer tells the whole fleet, as the done script's arguments: status, the
 * service's limit, what remains of it, and how long to hold every worker off. Each figure is
 * read by the harness's own clamped parsers (counts in [0, 10⁶], waits at most a day), so a
 * hostile service can size neither Redis memory nor a wait. '' stands for "not said".
 */
export function answerFigures(response: { status: number; headers: Record<string, string> } | undefined, now = Date.now()): string[] {
  if (!response) return ['', '', '', ''];
  const { status, headers } = response;
  const info = parseRateLimit(headers, now);
  const limited = status === 429;
  const exhausted = limited || info?.remaining === 0;
  let holdMs: number | undefined;
  if (exhausted) {
    const reset = parseResetHeader(headers['x-ratelimit-reset'] ?? headers['ratelimit-reset'], now);
    if (reset !== undefined) holdMs = clampWait(reset - now);
    // A 429's Retry-After holds the fleet too: one worker's backoff alone would not stop the others.
    const retryAfter = limited ? parseRetryAfter(headers['retry-after'], now) : undefined;
    if (retryAfter !== undefined) holdMs = Math.max(holdMs ?? 0, retryAfter);
  }
  const text = (n: number | undefined) => (n === undefined ? '' : String(n));
  return [String(status), text(info?.limit), text(info?.remaining), text(holdMs)];
}
