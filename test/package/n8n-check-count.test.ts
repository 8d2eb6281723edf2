/**
 * `npm run check:n8n` counts the errors of n8n's tools from their eslint summaries: the scanner
 * runs twice (the package's sources, then its tarball, as n8n's scan of a published package
 * does), so an error in either leg must count.
 */
import { describe, expect, it } from 'vitest';
import { problems } from '../../scripts/check-n8n-package.js';

describe('check:n8n error count', () => {
  it("sums the scanner's two summaries, coloured or not", () => {
    const sources = '\u001b[31m\u001b[1m✖ 2 problems (2 errors, 0 warnings)\u001b[22m\u001b[39m\n';
    const tarball = '✖ 4 problems (3 errors, 1 warning)\n';
    expect(problems(`${sources}${tarball}`, 1)).toBe(5);
    expect(problems('passed\npassed\n', 0)).toBe(0);
  });

  it('counts a tool that failed without a summary as one error, never a pass', () => {
    expect(problems('Analysis failed: Cannot find module', 1)).toBe(1);
  });
});
