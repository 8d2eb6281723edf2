import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSteps, type Step } from '../../scripts/test-steps.js';

const dir = mkdtempSync(join(tmpdir(), 'flowblocks-test-steps-'));
/** A node script that prints `text`, waits `ms`, prints when it ended and exits with `code`. */
function script(name: string, text: string, ms: number, code = 0): Step['commands'][number] {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `console.log(${JSON.stringify(text)}, Date.now()); setTimeout(() => { console.log('ended', Date.now()); process.exit(${code}); }, ${ms});`);
  return { label: name, script: file, args: [] };
}

async function steps(checks: Step[], tests: Step, stillRunningMs = 60_000) {
  let out = '';
  const code = await runSteps(checks, tests, (text) => (out += text), stillRunningMs);
  return { code, lines: out.split('\n').filter(Boolean) };
}

describe('npm test, step by step', () => {
  it('names each step when it starts, says it is still running, runs the checks side by side and times each', { timeout: 30_000 }, async () => {
    const { code, lines } = await steps(
      [
        { name: 'typecheck', commands: [script('tsc-a', 'checked a', 600), script('tsc-b', 'checked b', 10)] },
        { name: 'lint', commands: [script('eslint', 'linted', 600)] },
      ],
      { name: 'tests', commands: [script('vitest', 'tested', 10)] },
      250,
    );
    expect(code).toBe(0);
    // Side by side: the lint started before the type check's first command ended.
    const at = (prefix: string) => Number(lines[lines.findIndex((line) => line.startsWith(prefix)) + (prefix === 'checked a' ? 1 : 0)]!.split(' ').at(-1));
    expect(at('linted')).toBeLessThan(at('checked a'));
    expect(lines[0]).toBe('npm test: typecheck and lint side by side, then tests');
    expect(lines.slice(1, 3)).toEqual(['npm test: ▶ typecheck: tsc-a, then tsc-b', 'npm test: ▶ lint: eslint']);
    expect(lines).toContainEqual(expect.stringMatching(/^npm test: {3}… still running: typecheck \(0\.\d s\), lint \(0\.\d s\)$/));
    // A check's output comes as one piece when it ends, before its verdict.
    const lint = lines.findIndex((line) => line.startsWith('linted'));
    expect(lines[lint + 2]).toMatch(/^npm test: ✓ lint passed in \d+\.\d s$/);
    expect(lines[lines.findIndex((line) => line.startsWith('checked a')) + 2]).toMatch(/^checked b \d+$/);
    expect(lines.indexOf('npm test: ▶ tests: vitest')).toBeGreaterThan(lines.findIndex((l) => l.startsWith('npm test: ✓ typecheck passed')));
    expect(lines.at(-1)).toMatch(/^npm test: passed in \d+\.\d s \(typecheck \d+\.\d s, lint \d+\.\d s, tests \d+\.\d s\)$/);
  });

  it('stops before the tests when a check fails, with that check\'s exit code and output', { timeout: 30_000 }, async () => {
    const { code, lines } = await steps(
      [
        { name: 'typecheck', commands: [script('tsc', 'error TS2322', 10, 2), script('never', 'not run', 10)] },
        { name: 'lint', commands: [script('eslint', 'linted', 10)] },
      ],
      { name: 'tests', commands: [script('vitest', 'tested', 10)] },
    );
    expect(code).toBe(2);
    expect(lines).toContainEqual(expect.stringMatching(/^error TS2322 \d+$/));
    expect(lines).toContainEqual(expect.stringMatching(/^npm test: ✗ typecheck failed \(exit 2\) in/));
    expect(lines.some((line) => line.startsWith('not run'))).toBe(false);
    expect(lines.some((line) => line.includes('▶ tests'))).toBe(false);
    expect(lines.at(-1)).toBe('npm test: stopped before the tests: typecheck failed');
  });
});
