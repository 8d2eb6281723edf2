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

  it('are the server tools (from flowblocks/sim), their registry line and the id check; the blocks are `flowblocks sim-blocks`\'s', () => {
    expect(edits.map((e) => [e.file, e.newFile])).toEqual([
      ['apps/sim/tools/flowblocks.ts', true],
      ['apps/sim/tools/registry.ts', false],
      ['apps/sim/scripts/check-flowblocks-ids.ts', true],
    ]);
    expect(edits[2]!.lines.join('\n')).toContain("import { simIdChanges, simIds } from 'flowblocks/sim/blocks'");
    expect(edits[0]!.lines.join('\n')).toContain("from 'flowblocks/sim'");
    expect(doc).toContain('`bunx flowblocks sim-blocks .` writes a block file per block');
  });

  it("add the import and the spread at the end of Sim's map, once", () => {
    const sim = [
      "import { a2aSendMessageTool } from '@/tools/a2a'",
      '',
      'export const tools: Record<string, ToolConfig> = {',
      '  a2a_send_message: a2aSendMessageTool,',
      '}',
      '',
    ].join('\n');
    const once = applyEdit(sim, edits[1]!);
    expect(once.split('\n')).toEqual([
      "import { a2aSendMessageTool } from '@/tools/a2a'",
      "import { flowblocksTools } from '@/tools/flowblocks'",
      '',
      'export const tools: Record<string, ToolConfig> = {',
      '  a2a_send_message: a2aSendMessageTool,',
      '  ...flowblocksTools,',
      '}',
      '',
    ]);
    expect(applyEdit(once, edits[1]!)).toBe(once);
  });

  it("puts each import where Sim's biome sorts it: after the modules before it, multi-line imports and type imports included", () => {
    const sim = [
      "import { a2aSendMessageTool } from '@/tools/a2a'",
      'import {',
      '  zoomTool,',
      "} from '@/tools/zoom'",
      "import type { ToolConfig } from '@/tools/types'",
      '',
      'export const tools: Record<string, ToolConfig> = {',
      '}',
    ].join('\n');
    expect(applyEdit(sim, edits[1]!).split('\n').slice(0, 6)).toEqual([
      "import { a2aSendMessageTool } from '@/tools/a2a'",
      "import { flowblocksTools } from '@/tools/flowblocks'",
      'import {',
      '  zoomTool,',
      "} from '@/tools/zoom'",
      "import type { ToolConfig } from '@/tools/types'",
    ]);
  });

  it('names the map a Sim file lacks', () => {
    expect(() => applyEdit('export const other = {\n}\n', edits[1]!)).toThrow('apps/sim/tools/registry.ts: no "export const tools" in the Sim file');
  });
});
