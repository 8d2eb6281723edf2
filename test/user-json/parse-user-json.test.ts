import { describe, expect, it } from 'vitest';
import { jsonSyntaxOffset, lineAndColumn } from '../../src/satellites/user-json/json-syntax-offset.js';
import { parseUserJson, UserJsonError } from '../../src/satellites/user-json/parse-user-json.js';

function errorOf(text: string, source = '--params'): UserJsonError {
  try {
    parseUserJson(text, source);
  } catch (error) {
    if (error instanceof UserJsonError) return error;
    throw error;
  }
  throw new Error('parsed');
}

/** Small deterministic generator, so a failing input can be found again. */
function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('parseUserJson', () => {
  it('parses valid JSON', () => {
    expect(parseUserJson(' {"a": [1, "x"]} ', '--params')).toEqual({ a: [1, 'x'] });
  });

  it('names the source, line, column and position, and never the text', () => {
    const text = '{\n  "a": 1,\n  "token": "sk_live_51HxQ" oops\n}';
    const error = errorOf(text, 'the config file /etc/fb.json');
    expect(error).toMatchObject({ source: 'the config file /etc/fb.json', line: 3, column: 28, position: 39 });
    expect(text[error.position]).toBe('o');
    expect(error.message).toBe('the config file /etc/fb.json is not valid JSON: unexpected character at line 3, column 28 (position 39)');
    expect(error.cause).toBeUndefined();
    expect(errorOf('{"token":"sk_live_51HxQ"').message).toBe('--params is not valid JSON: it ends too early at line 1, column 25 (position 24)');
  });

  it('finds the first break in strings, numbers, words and containers', () => {
    const cases: [string, number | undefined][] = [
      ['{"a":1}', undefined],
      ['', 0],
      ['{"a":1}}', 7],
      ['{"a":tru}', 8],
      ['{"a":"x\\q"}', 8],
      ['{"a":"\\u12G4"}', 10],
      ['{"a":"x\u0001"}', 7],
      ['[01]', 2],
      ['[1.]', 3],
      ['[-]', 2],
      ['[1e+]', 4],
      ['{"a" 1}', 5],
      ['{,}', 1],
      ['[1,]', 3],
      ['\u00a0{}', 0],
      ['[[[[', 4],
    ];
    for (const [text, offset] of cases) expect(jsonSyntaxOffset(text), JSON.stringify(text)).toBe(offset);
  });

  it('agrees with JSON.parse on what is valid, and on where, when JSON.parse says where', () => {
    const next = random(14);
    const seeds = ['{"a":[1,2.5e-3,true,false,null,"x\\u00e9\\n"],"b":{"c":-0}}', '[]', '{}', '"s"', '0', ' [ { } , [ ] ] '];
    const alphabet = [...'{}[],:"\\u01-+.etrnx \n', '\u0001'];
    for (let round = 0; round < 20_000; round++) {
      let text = seeds[round % seeds.length]!;
      for (let edit = 0; edit <= round % 3; edit++) {
        const at = Math.floor(next() * (text.length + 1));
        const ch = alphabet[Math.floor(next() * alphabet.length)]!;
        const kind = Math.floor(next() * 3);
        text = text.slice(0, at) + (kind === 1 ? '' : ch) + text.slice(kind === 0 ? at : at + 1);
      }
      let message: string | undefined;
      try {
        JSON.parse(text);
      } catch (error) {
        message = (error as Error).message;
      }
      const offset = jsonSyntaxOffset(text);
      expect(offset === undefined, JSON.stringify(text)).toBe(message === undefined);
      const stated = message && / at position (\d+)/.exec(message)?.[1];
      if (stated) expect(offset, JSON.stringify(text)).toBe(Number(stated));
    }
  });

  it('copes with nesting far deeper than the call stack', () => {
    expect(jsonSyntaxOffset('['.repeat(1_000_000))).toBe(1_000_000);
    expect(jsonSyntaxOffset(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBeUndefined();
  });

  it('counts lines from 1 and columns from 1', () => {
    expect(lineAndColumn('ab\ncd\n', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd\n', 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn('ab\ncd\n', 6)).toEqual({ line: 3, column: 1 });
  });
});
