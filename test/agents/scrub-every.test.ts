/**
 * Promise (issue 34): the agents' last guard (`scrubSecrets`, run on everything an agent tool
 * hands a model) masks every occurrence of every secret: not only the first in a string, also
 * in object keys, at any depth, and a secret that holds another one is masked whole.
 * Tested on the guard alone: in a tool call, `executeTool`'s own redactor runs first and
 * would hide a gap here.
 */
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../src/hosts/agents/scrub.js';

const SECRET = 'p.tok/3n+=@"é';

describe('promise: the last-guard scrub masks every occurrence of a secret', () => {
  it('every occurrence in one string: repeated, adjacent, at both ends', () => {
    expect(scrubSecrets(`${SECRET} a ${SECRET}${SECRET} b ${SECRET}`, [SECRET])).toBe('[redacted] a [redacted][redacted] b [redacted]');
  });

  it('in every string of a nested value, arrays included', () => {
    const value = { a: [`x${SECRET}x${SECRET}`, { b: [[`${SECRET}`]], c: `${SECRET}-${SECRET}` }], n: 7, t: true, z: null };
    const scrubbed = scrubSecrets(value, [SECRET]);
    expect(scrubbed).toEqual({ a: ['x[redacted]x[redacted]', { b: [['[redacted]']], c: '[redacted]-[redacted]' }], n: 7, t: true, z: null });
    expect(JSON.stringify(scrubbed)).not.toContain('p.tok');
  });

  it('in object keys too (a service may echo a value as a key)', () => {
    const scrubbed = scrubSecrets({ [SECRET]: { [`k-${SECRET}-${SECRET}`]: 1 }, plain: SECRET }, [SECRET]);
    expect(scrubbed).toEqual({ '[redacted]': { 'k-[redacted]-[redacted]': 1 }, plain: '[redacted]' });
    expect(JSON.stringify(scrubbed)).not.toContain('p.tok');
    // A secret under 4 characters (the harness's floor) is masked in values only: it would wreck the result's own keys.
    expect(scrubSecrets({ ok: false, error: { code: 'k-k' } }, ['k'])).toEqual({ ok: false, error: { code: '[redacted]-[redacted]' } });
    expect(scrubSecrets({ abcd: 1 }, ['abcd'])).toEqual({ '[redacted]': 1 });
  });

  it('a secret that holds another one is masked whole, whatever order they are given in', () => {
    const short = 'abc123';
    const long = `tok-${short}-zz9`;
    for (const secrets of [
      [short, long],
      [long, short],
    ]) {
      expect(scrubSecrets(`x ${long} y ${short} ${long}`, secrets)).toBe('x [redacted] y [redacted] [redacted]');
    }
  });

  it('every secret of several, each every time', () => {
    const secrets = ['s-one', 's-two', 's-three'];
    const text = secrets.map((s) => `${s} ${s}`).join(' | ');
    expect(scrubSecrets(text, secrets)).toBe('[redacted] [redacted] | [redacted] [redacted] | [redacted] [redacted]');
  });
});
