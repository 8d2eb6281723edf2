import { describe, expect, it } from 'vitest';
import { clampWait, MAX_HEADER_COUNT, MAX_HEADER_WAIT_MS } from '../../src/harness/pace/header-figures.js';
import { parseRateLimit, parseResetHeader, parseRetryAfter } from '../../src/harness/pace/rate-limit.js';
import { serverDelayMs } from '../../src/harness/send/retry.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const DAY = MAX_HEADER_WAIT_MS;
const YEAR_S = 365 * 86_400;

describe('header figures are clamped and read by one strict grammar', () => {
  it.each([
    ['3', 3000],
    ['1.5', 1500],
    ['0.0001', 1],
    ['-0', 0],
    ['99999999999', DAY],
    ['1e400', DAY],
    ['Fri, 31 Dec 9999 23:59:59 GMT', DAY],
    ['Sun, 22 Nov 2026 09:00:00 GMT', 0],
    ['Sun, 22 Nov 2026 10:00:05 GMT', 5000],
    // A repeated header, joined: the longest wait.
    ['1, 5', 5000],
    ['0, 9999', 9_999_000],
    ['-1', undefined],
    ['5, soon', undefined],
    ['0x10', undefined],
    ['Infinity', undefined],
    ['NaN', undefined],
    ['x 1', undefined],
    ['   ', undefined],
    [undefined, undefined],
  ])('Retry-After %j waits %j ms', (value, want) => {
    expect(parseRetryAfter(value, NOW)).toBe(want);
  });

  it.each([
    ['30', NOW + 30_000],
    [String(NOW / 1000 + 60), NOW + 60_000],
    [String(NOW + 5), NOW + 5],
    ['2026-11-22T10:01:00Z', NOW + 60_000],
    // Seconds from now a year away, a millisecond figure read as seconds, epoch seconds in 5138, epoch ms in 9999.
    [String(YEAR_S), NOW + DAY],
    ['1500', NOW + 1_500_000],
    ['99999999999', NOW + DAY],
    ['253402300799000', NOW + DAY],
    ['1e20', NOW + DAY],
    ['1e400', NOW + DAY],
    ['Fri, 31 Dec 9999 23:59:59 GMT', NOW + DAY],
    // A reset already past is reported as it is (and means no wait).
    ['1500000000', 1_500_000_000_000],
    ['10, 20', NOW + 20_000],
    ['-5', undefined],
    ['garbage', undefined],
  ])('reset %j is %j', (value, want) => {
    expect(parseResetHeader(value, NOW)).toBe(want);
  });

  it('clamps counts to whole numbers in [0, 10⁶], believes the smaller of remaining and limit, and never throws on a reset', () => {
    const read = (headers: Record<string, string>) => parseRateLimit(headers, NOW);
    expect(read({ 'x-ratelimit-limit': '1000000000', 'x-ratelimit-remaining': '999999999' })).toEqual({ limit: MAX_HEADER_COUNT, remaining: MAX_HEADER_COUNT });
    expect(read({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '-5' })).toEqual({ limit: 10, remaining: 0 });
    expect(read({ 'x-ratelimit-limit': '2.9', 'x-ratelimit-remaining': '20' })).toEqual({ limit: 2, remaining: 2 });
    expect(read({ 'x-ratelimit-limit': '10, 20', 'x-ratelimit-remaining': '7, 3' })).toEqual({ limit: 10, remaining: 3 });
    expect(read({ 'x-ratelimit-limit': '0' })).toEqual({ limit: 0 });
    expect(read({ 'x-ratelimit-limit': '1e400' })).toEqual({ limit: MAX_HEADER_COUNT });
    expect(read({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': 'NaN' })).toBeUndefined();
    expect(read({ 'x-ratelimit-reset': '1e20' })).toEqual({ resetAt: new Date(NOW + DAY).toISOString() });
    expect(serverDelayMs({ 'retry-after': '-1', 'x-ratelimit-reset': '1e400' }, NOW)).toBe(DAY);
  });
});

describe('the grammar of a header figure, form by form', () => {
  it.each([
    // Decimals of several digits on both sides, a leading dot, a signed exponent.
    ['12.5', 12_500],
    ['.25', 250],
    ['+.25', 250],
    ['1e+3', 1_000_000],
    ['2.5e-1', 250],
    // Around a value: white space is not part of it.
    [' 5 ', 5000],
    ['\t7', 7000],
    // An empty header is not a zero wait.
    ['', undefined],
    ['.', undefined],
    ['1e', undefined],
    ['e3', undefined],
    ['1.2.3', undefined],
  ])('Retry-After %j waits %j ms', (value, want) => {
    expect(parseRetryAfter(value, NOW)).toBe(want);
  });

  it.each([
    // IMF-fixdate, RFC 850 and asctime, the three forms of HTTP; white space around them.
    ['Sun, 22 Nov 2026 10:00:05 GMT', 5000],
    ['Sunday, 22-Nov-26 10:00:05 GMT', 5000],
    ['Sun Nov 22 10:00:05 2026', 5000],
    ['  Sun, 22 Nov 2026 10:00:05 GMT  ', 5000],
    // Text after or before a date is not a date (Date.parse alone reads the first as June).
    ['Sun, 22 Nov 2026 10:00:05 GMT junk', undefined],
    ['1 Sun, 22 Nov 2026 10:00:05 GMT', undefined],
  ])('Retry-After date %j waits %j ms', (value, want) => {
    expect(parseRetryAfter(value, NOW)).toBe(want);
  });

  it.each([
    // ISO 8601: a date alone, without a zone, with Z, with an offset in either spelling, a space for the T.
    ['2026-11-22', Date.parse('2026-11-22T00:00:00Z')],
    ['2026-11-22T10:01:00', new Date(2026, 10, 22, 10, 1, 0).getTime()],
    ['2026-11-22T11:01:00+01:00', NOW + 60_000],
    ['2026-11-22T11:01:00+0100', NOW + 60_000],
    ['2026-11-22T09:01:00-01:00', NOW + 60_000],
    ['2026-11-22 10:01:00.500Z', NOW + 60_500],
    ['a 2026-11-22', undefined],
    ['2026-11-22T10:01:00Z junk', undefined],
    ['2026-11-22T10:01:00+1:00', undefined],
  ])('reset %j is %j', (value, want) => {
    expect(parseResetHeader(value, NOW)).toBe(want);
  });

  it('reads a 16-digit figure as the number it is (epoch ms, clamped to a day ahead)', () => {
    expect(parseResetHeader('0001795341605000', NOW)).toBe(NOW + 5000);
    expect(parseResetHeader('9999999999999999', NOW)).toBe(NOW + DAY);
  });
});

describe('clampWait: any wait, however it was computed, as whole ms within [0, a day]', () => {
  // The Redis pacer holds for clampWait(reset - now): a reset from elsewhere must not hold for longer than a day.
  it.each([
    [-5, 0],
    [0, 0],
    [0.2, 1],
    [1500.5, 1501],
    [DAY - 0.5, DAY],
    [DAY, DAY],
    [DAY + 1, DAY],
    [7 * DAY, DAY],
    [Infinity, DAY],
  ])('clampWait(%j) is %j', (ms, want) => {
    expect(clampWait(ms)).toBe(want);
  });
});
