/**
 * What one answer tells the whole fleet (src/redis/answer-figures.ts): the done script's four
 * arguments, each read by the harness's clamped parsers. No Redis needed; it is the Redis
 * pacer's code, so it runs in the Redis mutation run (npm run mutation).
 */
import { describe, expect, it } from 'vitest';
import { answerFigures } from '../../src/redis/answer-figures.js';

const NOW = 1_700_000_000_000;
const figures = (status: number, headers: Record<string, string> = {}) => answerFigures({ status, headers }, NOW);

describe('answerFigures', () => {
  it('says nothing of a request that got no answer', () => {
    expect(answerFigures(undefined, NOW)).toEqual(['', '', '', '']);
  });

  it('passes the status, limit and remaining on, and no hold while slots remain', () => {
    expect(figures(200)).toEqual(['200', '', '', '']);
    expect(figures(200, { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '2' })).toEqual(['200', '10', '3', '']);
    expect(figures(200, { 'ratelimit-limit': '7', 'ratelimit-remaining': '1' })).toEqual(['200', '7', '1', '']);
  });

  it('holds the fleet until the reset when nothing remains (either spelling of the header)', () => {
    expect(figures(200, { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' })).toEqual(['200', '10', '0', '2000']);
    expect(figures(200, { 'ratelimit-remaining': '0', 'ratelimit-reset': '3' })).toEqual(['200', '', '0', '3000']);
    // Nothing remains but no reset said: no hold from here (the script holds what it counts).
    expect(figures(200, { 'x-ratelimit-remaining': '0' })).toEqual(['200', '', '0', '']);
  });

  it("takes a 429's Retry-After, the longer of it and the reset; a 200's Retry-After holds nothing", () => {
    expect(figures(429, { 'retry-after': '3' })).toEqual(['429', '', '', '3000']);
    expect(figures(429, { 'retry-after': '5', 'x-ratelimit-reset': '2' })[3]).toBe('5000');
    expect(figures(429, { 'retry-after': '2', 'x-ratelimit-reset': '5' })[3]).toBe('5000');
    expect(figures(429)).toEqual(['429', '', '', '']);
    expect(figures(200, { 'x-ratelimit-remaining': '0', 'retry-after': '9' })[3]).toBe('');
    expect(figures(503, { 'retry-after': '9' })).toEqual(['503', '', '', '']);
  });

  it('clamps what a hostile service says: counts to 10⁶, a hold to a day, a reset in the past to 0', () => {
    expect(figures(429, { 'x-ratelimit-limit': '1e12', 'x-ratelimit-remaining': '-4', 'retry-after': '1e400', 'x-ratelimit-reset': '99999999999999' })).toEqual(['429', '1000000', '0', '86400000']);
    expect(figures(200, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW - 5_000) })[3]).toBe('0');
  });
});
