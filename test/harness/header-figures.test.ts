import { describe, expect, it } from 'vitest';
import { MAX_HEADER_COUNT, MAX_HEADER_WAIT_MS } from '../../src/harness/header-figures.js';
import { parseRateLimit, parseResetHeader, parseRetryAfter } from '../../src/harness/rate-limit.js';
import { serverDelayMs } from '../../src/harness/retry.js';

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
