import { describe, expect, it } from 'vitest';
import { answerFigures } from '../../src/redis/answer-figures.js';

// What the Redis pacer hands its done script: the harness's clamped header figures, as text.
describe('answerFigures (the Redis pacer reading an answer)', () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);

  it('says nothing for a request that got no answer', () => {
    expect(answerFigures(undefined, now)).toEqual(['', '', '', '']);
  });

  it('gives limit and remaining, and no hold while requests remain', () => {
    expect(answerFigures({ status: 200, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '5' } }, now)).toEqual(['200', '10', '3', '']);
  });

  it('holds until the reset when nothing remains, and for the longer of reset and Retry-After on a 429', () => {
    expect(answerFigures({ status: 200, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' } }, now)).toEqual(['200', '', '0', '2000']);
    expect(answerFigures({ status: 429, headers: { 'retry-after': '7', 'x-ratelimit-reset': '2' } }, now)).toEqual(['429', '', '', '7000']);
    expect(answerFigures({ status: 429, headers: {} }, now)).toEqual(['429', '', '', '']);
  });

  it('clamps hostile figures: counts to 10⁶, waits to a day, garbage and negatives ignored', () => {
    expect(answerFigures({ status: 429, headers: { 'x-ratelimit-limit': '1e12', 'retry-after': '1e400' } }, now)).toEqual(['429', '1000000', '', '86400000']);
    expect(answerFigures({ status: 429, headers: { 'retry-after': '-5', 'x-ratelimit-limit': '0x10' } }, now)).toEqual(['429', '', '', '']);
    expect(answerFigures({ status: 200, headers: { 'x-ratelimit-remaining': '-3', 'x-ratelimit-reset': '99999999999999' } }, now)).toEqual(['200', '', '0', '86400000']);
  });
});
