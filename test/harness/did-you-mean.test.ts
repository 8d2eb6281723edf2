import { describe, expect, it } from 'vitest';
import { closestName, didYouMean } from '../../src/harness/did-you-mean.js';

describe('closestName', () => {
  it('finds the name a typo meant', () => {
    expect(closestName('waitt', ['wait', 'datasource'])).toBe('wait');
    expect(closestName('pipelin', ['base_url', 'token', 'pipe', 'parameters'])).toBe('pipe');
    expect(closestName('sandox', ['sandbox', 'list', 'monitor'])).toBe('sandbox');
    expect(closestName('tinybird_qurey', ['tinybird_query', 'tinybird_query_pipe'])).toBe('tinybird_query');
  });

  it('ignores case, and takes the nearest of several', () => {
    expect(closestName('QUERY', ['query'])).toBe('query');
    expect(closestName('querx', ['queue', 'query'])).toBe('query');
    // A tie goes to the first name given.
    expect(closestName('ab', ['a', 'b'])).toBe('a');
  });

  it('allows up to half the longer name in edits, and at least two', () => {
    expect(closestName('ab', ['xy'])).toBe('xy'); // 2 edits: the floor of two
    expect(closestName('abc', ['xyz'])).toBeUndefined(); // 3 edits of 3 letters
    expect(closestName('abcdefgh', ['abcdwxyz'])).toBe('abcdwxyz'); // 4 of 8
    expect(closestName('abcdefgh', ['abcvwxyz'])).toBeUndefined(); // 5 of 8
    expect(closestName('abcdefghij', ['abcde'])).toBe('abcde'); // 5 of 10: a prefix
  });

  it('counts insertions, deletions and substitutions', () => {
    expect(closestName('kitten', ['sitting'])).toBe('sitting'); // 3 edits of 7
    expect(closestName('', ['ab'])).toBe('ab');
    expect(closestName('ab', [''])).toBe('');
    expect(closestName('frobnicate', ['list', 'run', 'sandbox'])).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('is the hint when a name is close, else nothing', () => {
    expect(didYouMean('waitt', new Set(['wait']))).toBe(" (did you mean 'wait'?)");
    expect(didYouMean('zzzzzz', new Set(['wait']))).toBe('');
  });
});
