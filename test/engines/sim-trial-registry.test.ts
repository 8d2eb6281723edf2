/**
 * scripts/sim-trial.sh applies the Sim registry blocks of docs/engines.md to a Sim checkout
 * (scripts/sim-trial/apply-registry.ts): the doc must hold them in the form the script reads,
 * and applying them twice must change a Sim file once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdit, registryEdits } from '../../scripts/sim-trial/apply-registry.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'engines.md'), 'utf8');

describe('the Sim registry lines of docs/engines.md', () => {
  const edits = registryEdits(doc);

  it('are two new files (editor blocks from flowblocks/sim/blocks, server tools from flowblocks/sim), two edited maps and the id check', () => {
    expect(edits.map((e) => [e.file, e.newFile])).toEqual([
      ['apps/sim/blocks/flowblocks.ts', true],
      ['apps/sim/tools/flowblocks.ts', true],
      ['apps/sim/blocks/registry-maps.ts', false],
      ['apps/sim/tools/registry.ts', false],
      ['apps/sim/scripts/check-flowblocks-ids.ts', true],
    ]);
    expect(edits[4]!.lines.join('\n')).toContain("import { simIdChanges, simIds } from 'flowblocks/sim/blocks'");
    expect(edits[0]!.lines.join('\n')).toContain("from 'flowblocks/sim/blocks'");
    expect(edits[0]!.lines.join('\n')).not.toContain("from 'flowblocks/sim'\n");
    expect(edits[1]!.lines.join('\n')).toContain("from 'flowblocks/sim'");
  });

  it("add the imports and the spreads at the end of Sim's maps, once", () => {
    const sim = [
      "import { A2ABlock } from '@/blocks/blocks/a2a'",
      '',
      'export const BLOCK_REGISTRY: Record<string, BlockConfig> = {',
      '  a2a: A2ABlock,',
      '}',
      '',
      'export const BLOCK_META_REGISTRY: Record<string, BlockMeta> = {',
      '  affinity: AffinityBlockMeta,',
      '}',
      '',
    ].join('\n');
    const once = applyEdit(sim, edits[2]!);
    expect(once.split('\n')).toEqual([
      "import { A2ABlock } from '@/blocks/blocks/a2a'",
      "import { flowblocks } from '@/blocks/flowblocks'",
      '',
      'export const BLOCK_REGISTRY: Record<string, BlockConfig> = {',
      '  a2a: A2ABlock,',
      '  ...flowblocks.blocks,',
      '}',
      '',
      'export const BLOCK_META_REGISTRY: Record<string, BlockMeta> = {',
      '  affinity: AffinityBlockMeta,',
      '  ...flowblocks.meta,',
      '}',
      '',
    ]);
    expect(applyEdit(once, edits[2]!)).toBe(once);
  });

  it("puts each import where Sim's biome sorts it: after the modules before it, multi-line imports and type imports included", () => {
    const sim = [
      "import { A2ABlock } from '@/blocks/blocks/a2a'",
      'import {',
      '  ZoomBlock,',
      "} from '@/blocks/blocks/zoom'",
      "import type { BlockConfig, BlockMeta } from '@/blocks/types'",
      '',
      'export const BLOCK_REGISTRY: Record<string, BlockConfig> = {',
      '}',
      'export const BLOCK_META_REGISTRY: Record<string, BlockMeta> = {',
      '}',
    ].join('\n');
    expect(applyEdit(sim, edits[2]!).split('\n').slice(0, 6)).toEqual([
      "import { A2ABlock } from '@/blocks/blocks/a2a'",
      'import {',
      '  ZoomBlock,',
      "} from '@/blocks/blocks/zoom'",
      "import { flowblocks } from '@/blocks/flowblocks'",
      "import type { BlockConfig, BlockMeta } from '@/blocks/types'",
    ]);
  });

  it('names the map a Sim file lacks', () => {
    expect(() => applyEdit('export const other = {\n}\n', edits[3]!)).toThrow('apps/sim/tools/registry.ts: no "export const tools" in the Sim file');
  });
});
