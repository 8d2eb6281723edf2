/**
 * The mutated set is read from one place, stryker.config.json's `mutate`: the mutation runs'
 * setup imports what `mutatedFiles()` lists, and `mutation:ci` picks changed files with `matcher`.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matcher, mutatedFiles, strykerConfig } from './mutated-files.js';

describe('the mutated set', () => {
  const files = mutatedFiles();

  it('lists every file the globs match, the Redis code included, and nothing they exclude', () => {
    expect(files).toContain('src/harness/send/retry.ts');
    expect(files).toContain('src/harness/define/custom-call.ts');
    expect(files).toContain('src/redis/pacer.ts');
    expect(files).toContain('src/satellites/notifications/redis/lease.ts');
    expect(files).toContain('packages/n8n-nodes-flowblocks/src/host-timers.mts');
    expect(files).not.toContain('src/harness/types.ts');
    expect(files.every((file) => existsSync(file))).toBe(true);
    expect([...files].sort()).toEqual(files);
  });

  it('names each plain entry of the list once, as a file that exists', () => {
    const plain = strykerConfig().mutate.filter((glob) => !glob.includes('*'));
    for (const entry of plain.filter((glob) => !glob.startsWith('!'))) expect(files, entry).toContain(entry);
    expect(new Set(files).size).toBe(files.length);
  });

  it('matches `*` within a segment, `**` across segments, and excludes `!` entries', () => {
    const isMutated = matcher(['src/a/**/*.ts', '!src/a/types.ts', 'tools/x/*.ts']);
    expect(isMutated('src/a/b.ts')).toBe(true);
    expect(isMutated('src/a/deep/er/b.ts')).toBe(true);
    expect(isMutated('src/a/types.ts')).toBe(false);
    expect(isMutated('src/a/deep/types.ts')).toBe(true);
    expect(isMutated('tools/x/y.ts')).toBe(true);
    expect(isMutated('tools/x/y/z.ts')).toBe(false);
    expect(isMutated('src/a/b.tsx')).toBe(false);
    expect(isMutated('src/ab.ts')).toBe(false);
  });
});
