import { describe, expect, it } from 'vitest';
import { BUDGET_BYTES, judgePack } from '../../scripts/pack-budget.js';

const file = (path: string, size: number) => ({ path, size });

describe('tarball budget', () => {
  it('passes a tarball within the budget', () => {
    const verdict = judgePack({ size: BUDGET_BYTES, unpackedSize: 800_000, entryCount: 3, files: [file('dist/a.js', 10)] });
    expect(verdict).toEqual({ ok: true, summary: `tarball: ${(BUDGET_BYTES / 1000).toFixed(1)} kB packed, 800.0 kB unpacked, 3 files (budget ${(BUDGET_BYTES / 1000).toFixed(1)} kB packed)`, errors: [] });
  });

  it('fails one byte over and names the largest files first, at most ten', () => {
    const files = [file('README.md', 13_000), file('docs/preview/workflow.png', 234_185), ...Array.from({ length: 12 }, (_, i) => file(`dist/f${i}.js`, 100 + i))];
    const verdict = judgePack({ size: BUDGET_BYTES + 1, unpackedSize: 1_000_000, entryCount: files.length, files });
    expect(verdict.ok).toBe(false);
    expect(verdict.errors[0]).toBe('The tarball is over its budget by 0.0 kB. Largest files:');
    expect(verdict.errors.slice(1, 3)).toEqual(['   234.2 kB  docs/preview/workflow.png', '    13.0 kB  README.md']);
    expect(verdict.errors).toHaveLength(1 + 10 + 1);
  });
});
