/**
 * #31 item 12, the cheap half (in `npm test`): every fenced block of README.md and docs/*.md
 * is one the docs test runs (ts, js, sh, or a file it writes) or is marked illustrative with a
 * reason. `npm run test:docs` runs them (scripts/test-docs.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBlocks, repoBlocks, where } from '../../scripts/docs-test/blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the docs blocks', () => {
  it('are each run by the docs test or marked illustrative with a reason', () => {
    const blocks = repoBlocks(root);
    expect(blocks.length).toBeGreaterThan(40);
    expect(blocks.filter((b) => b.kind === 'unmarked').map(where)).toEqual([]);
    expect(blocks.filter((b) => b.kind === 'illustrative' && !b.note?.trim()).map(where)).toEqual([]);
  });

  it('run as shown: none has a hidden preamble (#42)', () => {
    expect(repoBlocks(root).filter((b) => b.kind === 'hidden-preamble').map(where)).toEqual([]);
  });
});

describe('parseBlocks', () => {
  const md = [
    '# T', //                                        1
    '```sh', //                                      2
    'npx flowblocks list', //                        3
    '```', //                                        4
    '<!-- illustrative: an output sample -->', //    5
    '```json', //                                    6
    '{ "a": 1 }', //                                 7
    '```', //                                        8
    '<!-- preamble: const token = "t";', //          9
    '     const base_url = "u"; -->', //            10
    '```ts', //                                     11
    'use(token, base_url);', //                     12
    '```', //                                       13
    '- a list item:', //                            14
    '  ```js', //                                   15
    '  const x = 1;', //                            16
    '  ```', //                                     17
    '<!-- file: monitor.json -->', //               18
    '```json', //                                   19
    '{}', //                                        20
    '```', //                                       21
    '```', //                                       22
    'a layout', //                                  23
    '```', //                                       24
    'Some text', //                                 25
    '', //                                          26
    '```text', //                                   27
    '```', //                                       28
  ].join('\n');

  it('finds each block with its line, language, text and what the docs test does with it', () => {
    expect(parseBlocks('x.md', md)).toEqual([
      { file: 'x.md', line: 2, lang: 'sh', text: 'npx flowblocks list', kind: 'shell' },
      { file: 'x.md', line: 6, lang: 'json', text: '{ "a": 1 }', kind: 'illustrative', note: 'an output sample' },
      { file: 'x.md', line: 11, lang: 'ts', text: 'use(token, base_url);', kind: 'hidden-preamble', note: 'const token = "t";\nconst base_url = "u";' },
      { file: 'x.md', line: 15, lang: 'js', text: 'const x = 1;', kind: 'code' },
      { file: 'x.md', line: 19, lang: 'json', text: '{}', kind: 'file', note: 'monitor.json' },
      { file: 'x.md', line: 22, lang: '', text: 'a layout', kind: 'unmarked' },
      { file: 'x.md', line: 27, lang: 'text', text: '', kind: 'unmarked' },
    ]);
  });
});
