/**
 * Sim imports its block registry from `'use client'` components: `flowblocks/sim/blocks` must
 * bundle for the browser. esbuild with `platform: 'browser'` refuses every Node built-in
 * (`node:crypto`, `node:fs/promises`, …) as an unresolvable import; nothing is external, so a
 * package that is not browser-safe would be pulled in and seen too.
 */
import { build, type BuildFailure } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

async function browserBundle(entry: string) {
  return build({ absWorkingDir: ROOT, entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, logLevel: 'silent' });
}

describe('flowblocks/sim/blocks in a browser bundle', () => {
  it('bundles with no Node built-in and no package: the blocks and the icon code only', async () => {
    const result = await browserBundle('src/hosts/sim/blocks.ts');
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('node_modules') || input.startsWith('node:'))).toEqual([]);
    expect(inputs.sort()).toEqual(['src/blocks/manifests.generated.ts', 'src/hosts/sim/block-config.ts', 'src/hosts/sim/blocks.ts', 'src/hosts/sim/ids.ts', 'src/hosts/sim/native-block.ts']);
  });

  it('refuses the server entry, which runs tools (the check can fail)', async () => {
    const failure = await browserBundle('src/hosts/sim/index.ts').then(
      () => undefined,
      (error: BuildFailure) => error,
    );
    const texts = (failure?.errors ?? []).map((e) => e.text).join('\n');
    expect(texts).toMatch(/node:crypto/);
  });
});
