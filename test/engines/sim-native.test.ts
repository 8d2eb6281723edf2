/**
 * `flowblocks sim-blocks` (issue 39, item 5): the blocks as Sim integrations, in Sim's own
 * layout. Sim's docs and catalog generators read `apps/sim/blocks/blocks/*.ts` as text, so the
 * block file spells out what they read and takes the rest from `simNativeBlock`; these tests
 * hold the two to the same block, the output to Sim's biome style, and the edits of Sim's
 * own files (icons, registry) to their place and to running once. The trial
 * (scripts/sim-trial.sh, step 4b) runs Sim's biome, generators and checks over the output.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { blockManifests } from '../../src/blocks/manifests.generated.js';
import { simNativeBlock, toSimBlocks } from '../../src/hosts/sim/blocks.js';
import { simNativeBlockFile } from '../../src/hosts/sim/native-block-file.js';
import { SIM_ICONS_FILE, SIM_REGISTRY_FILE, simNativeFiles } from '../../src/hosts/sim/native-files.js';
import { simIconComponent } from '../../src/hosts/sim/native-icon.js';
import { withSimIcons, withSimRegistryEntries } from '../../src/hosts/sim/native-registry.js';
import { jsString } from '../../src/hosts/sim/native-source.js';
import { cli } from '../cli/run-cli.js';

const ICONS = "import type { SVGProps } from 'react'\n\nexport function AIcon(props: SVGProps<SVGSVGElement>) {\n  return <svg {...props} />\n}\n";
const REGISTRY = [
  "import { A2ABlock, A2ABlockMeta } from '@/blocks/blocks/a2a'",
  "import { GammaBlock, GammaBlockMeta } from '@/blocks/blocks/gamma'",
  "import type { BlockConfig, BlockMeta } from '@/blocks/types'",
  '',
  'export const BLOCK_REGISTRY: Record<string, BlockConfig> = {',
  '  a2a: A2ABlock,',
  '  gamma: GammaBlock,',
  '}',
  '',
  'export const BLOCK_META_REGISTRY: Record<string, BlockMeta> = {',
  '  a2a: A2ABlockMeta,',
  '  gamma: GammaBlockMeta,',
  '}',
  '',
].join('\n');
const sim = { [SIM_ICONS_FILE]: ICONS, [SIM_REGISTRY_FILE]: REGISTRY };
const read = (path: string) => sim[path as keyof typeof sim]!;
const tinybird = blockManifests.find((m) => m.type === 'tinybird')!;

describe('a native block file', () => {
  const { path, text } = simNativeBlockFile(tinybird, '9.9.9');

  it("is a BlockConfig and a BlockMeta in Sim's layout, with the literal fields Sim's generators read", () => {
    expect(path).toBe('apps/sim/blocks/blocks/flowblocks_tinybird.ts');
    expect(text.split('\n').slice(0, 4)).toEqual([
      "import { simNativeBlock } from 'flowblocks/sim/blocks'",
      "import { FlowblocksTinybirdIcon } from '@/components/icons'",
      "import type { BlockConfig, BlockMeta } from '@/blocks/types'",
      "import { AuthMode, IntegrationType } from '@/blocks/types'",
    ]);
    expect(text).toContain("const block = simNativeBlock('tinybird')\n\nexport const FlowblocksTinybirdBlock: BlockConfig = {\n  type: 'flowblocks_tinybird',\n  name: 'Tinybird (flowblocks)',\n");
    for (const line of [
      '  authMode: AuthMode.ApiKey,',
      "  docsLink: 'https://docs.sim.ai/integrations/flowblocks_tinybird',",
      "  category: 'tools',",
      '  integrationType: IntegrationType.Analytics,',
      "  bgColor: '#2D27F7',",
      '  icon: FlowblocksTinybirdIcon,',
      '  canvasPresentation: block.canvasPresentation,',
      '      ...block.operation,',
      '    ...block.fields,',
      '    config: block.tools.config,',
      '  inputs: block.inputs,',
      '  outputs: block.outputs,',
      'export const FlowblocksTinybirdBlockMeta: BlockMeta = {',
      "  tags: ['data-warehouse', 'data-analytics'],",
      "  url: 'https://www.tinybird.co/docs/api-reference',",
    ]) {
      expect(text.split('\n')).toContain(line);
    }
    // Sim's generator takes the first `description:` before the nested objects: the short one comes first.
    expect(text.indexOf('  description:')).toBeLessThan(text.indexOf('  longDescription:'));
    expect(text.indexOf('  longDescription:')).toBeLessThan(text.indexOf('  subBlocks: ['));
  });

  it('spells out the same operations and tools simNativeBlock gives Sim at run time', () => {
    const runtime = simNativeBlock('tinybird');
    const options = runtime.operation.options!.map(({ label, id }) => `        { label: ${jsString(label)}, id: ${jsString(id)} },`);
    expect(options).toHaveLength(tinybird.tools.access.length);
    expect(text).toContain(`      options: [\n${options.join('\n')}\n      ],`);
    const access = toSimBlocks({ createElement: () => null }).blocks.flowblocks_tinybird!.tools.access;
    expect(text).toContain(`    access: [\n${access.map((id) => `      '${id}',`).join('\n')}\n    ],`);
    expect(runtime.operation.value?.({})).toBe('query');
    expect(runtime.fields.map((f) => f.id)).not.toContain('operation');
    expect(runtime.tools.config.tool({ operation: 'events' })).toBe('flowblocks_tinybird_events');
    expect(Object.keys(runtime.canvasPresentation.sentences.byOperation)).toHaveLength(access.length);
    expect(() => simNativeBlock('nope')).toThrow(/flowblocks has no block nope \(known: tinybird, loops, workflow\)/);
  });

  it('passes prefixes other than the default to simNativeBlock, and takes them in its ids', () => {
    const acme = simNativeBlockFile(tinybird, '9.9.9', { idPrefix: 'acme_', blockTypePrefix: 'acme_' });
    expect(acme.path).toBe('apps/sim/blocks/blocks/acme_tinybird.ts');
    expect(acme.text).toContain("const block = simNativeBlock('tinybird', { idPrefix: 'acme_', blockTypePrefix: 'acme_' })");
    expect(acme.text).toContain("export const AcmeTinybirdBlock: BlockConfig = {\n  type: 'acme_tinybird',");
    expect(acme.text).toContain("      'acme_tinybird_query',");
    expect(simNativeBlock('tinybird', { idPrefix: 'acme_' }).tools.config.tool({ operation: 'query' })).toBe('acme_tinybird_query');
  });

  it('names the package version it was written from, and is the same text every time', () => {
    expect(text).toContain('from flowblocks 9.9.9:');
    expect(simNativeFiles(blockManifests, read, '9.9.9')).toEqual(simNativeFiles(blockManifests, read, '9.9.9'));
  });
});

describe("the output, in Sim's biome style", () => {
  const files = simNativeFiles(blockManifests, read, '9.9.9');

  it('has no semicolon, tab or trailing space, two-space indents, and 100 columns but for a lone string', () => {
    for (const { path, text } of files) {
      expect(text.endsWith('\n'), path).toBe(true);
      for (const line of text.split('\n')) {
        expect(line, `${path}: ${line}`).not.toMatch(/;$|\t| $/);
        if (!line.startsWith(' *')) expect(/^ */.exec(line)![0].length % 2, `${path}: ${line}`).toBe(0);
        // Biome cannot break a string literal (a lone one after a colon, or a JSX element's only attribute).
        if (line.length > 100) expect(line, path).toMatch(/^ *(["'][^\n]*["'],|<\w+ \w+='[^']*' \/>)$/);
      }
    }
  });

  it('quotes strings as biome does: single quotes, double where the text has a single quote', () => {
    const loops = files.find((f) => f.path.endsWith('flowblocks_workflow.ts'))!.text;
    expect(loops).toMatch(/^ {4}"Call another deployed Sim workflow .*execution and log API works too\)\.",$/m);
    for (const text of ["plain", "it's", 'say "hi"', `both ' and "`, 'back\\slash', 'new\nline']) {
      const literal = jsString(text);
      expect(runInNewContext(literal)).toBe(text);
      expect(literal.startsWith('"')).toBe(text.includes("'") && !text.includes('"'));
    }
  });
});

describe('an icon in Sim style', () => {
  it('is a component of JSX with React attribute names, on one line when it fits, one attribute a line when not', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"><path d="M1 2h3"/><circle cx="1" cy="2" r=".5" fill="currentColor"/><g><rect x="1" y="1" width="2" height="2"/></g></svg>';
    expect(simIconComponent('XIcon', svg, 'block x').split('\n')).toEqual([
      'export function XIcon(props: SVGProps<SVGSVGElement>) {',
      '  return (',
      '    <svg',
      '      {...props}',
      "      viewBox='0 0 24 24'",
      "      fill='none'",
      "      stroke='currentColor'",
      "      strokeWidth='1.8'",
      "      strokeLinecap='round'",
      "      xmlns='http://www.w3.org/2000/svg'",
      '    >',
      "      <path d='M1 2h3' />",
      "      <circle cx='1' cy='2' r='.5' fill='currentColor' />",
      '      <g>',
      "        <rect x='1' y='1' width='2' height='2' />",
      '      </g>',
      '    </svg>',
      '  )',
      '}',
    ]);
  });

  it('refuses what a line icon has not: a script, an event handler, text, an unclosed element, two roots', () => {
    expect(() => simIconComponent('X', '<svg><script>alert(1)</script></svg>', 'block x')).toThrow("block x: its icon has a <script> element, which a Sim icon file does not take");
    expect(() => simIconComponent('X', '<svg onload="alert(1)"></svg>', 'block x')).toThrow('block x: its icon has the attribute onload');
    expect(() => simIconComponent('X', '<svg>text</svg>', 'block x')).toThrow('block x: its icon is not a plain SVG line icon (at character 5)');
    expect(() => simIconComponent('X', '<svg><g></svg>', 'block x')).toThrow('closes <svg> out of order');
    expect(() => simIconComponent('X', '<svg><path d="M1"/>', 'block x')).toThrow('is not one complete <svg> element');
    expect(() => simIconComponent('X', '<svg></svg><svg></svg>', 'block x')).toThrow('more than one root element');
  });

  it("writes an attribute value through a string literal that no value can leave", () => {
    const text = simIconComponent('X', `<svg><path d="M1 1' {x} \\' /"/></svg>`, 'block x');
    expect(text).toContain(`<path d={"M1 1' {x} \\\\' /"} />`);
    expect(() => simIconComponent('X', '<svg><path d="M1"/><script>x</script>"/></svg>', 'block x')).toThrow('a <script> element');
  });
});

describe("Sim's own files", () => {
  const entry = { type: 'flowblocks_loops', module: '@/blocks/blocks/flowblocks_loops', block: 'FlowblocksLoopsBlock', meta: 'FlowblocksLoopsBlockMeta' };

  it('registry-maps.ts: the import where biome sorts it, an entry in each map before the next key, once', () => {
    const once = withSimRegistryEntries(REGISTRY, [entry]);
    expect(once.split('\n')).toEqual([
      "import { A2ABlock, A2ABlockMeta } from '@/blocks/blocks/a2a'",
      "import { FlowblocksLoopsBlock, FlowblocksLoopsBlockMeta } from '@/blocks/blocks/flowblocks_loops'",
      "import { GammaBlock, GammaBlockMeta } from '@/blocks/blocks/gamma'",
      "import type { BlockConfig, BlockMeta } from '@/blocks/types'",
      '',
      'export const BLOCK_REGISTRY: Record<string, BlockConfig> = {',
      '  a2a: A2ABlock,',
      '  flowblocks_loops: FlowblocksLoopsBlock,',
      '  gamma: GammaBlock,',
      '}',
      '',
      'export const BLOCK_META_REGISTRY: Record<string, BlockMeta> = {',
      '  a2a: A2ABlockMeta,',
      '  flowblocks_loops: FlowblocksLoopsBlockMeta,',
      '  gamma: GammaBlockMeta,',
      '}',
      '',
    ]);
    expect(withSimRegistryEntries(once, [entry])).toBe(once);
  });

  it('registry-maps.ts: an import longer than 100 columns one name a line, as biome prints it', () => {
    const long = { type: 'flowblocks_workflow', module: '@/blocks/blocks/flowblocks_workflow', block: 'FlowblocksWorkflowBlock', meta: 'FlowblocksWorkflowBlockMeta' };
    const text = withSimRegistryEntries(REGISTRY, [long]);
    expect(text).toContain("import {\n  FlowblocksWorkflowBlock,\n  FlowblocksWorkflowBlockMeta,\n} from '@/blocks/blocks/flowblocks_workflow'\nimport { GammaBlock");
    expect(withSimRegistryEntries(text, [long])).toBe(text);
    expect(() => withSimRegistryEntries('export const X = {\n}\n', [long])).toThrow("registry-maps.ts imports no @/blocks/blocks/… module: not Sim's file");
  });

  it('icons.tsx: one marked region at the end, replaced (not added again) on the next run', () => {
    const once = withSimIcons(ICONS, ['export function OneIcon() {}']);
    expect(once.startsWith(ICONS)).toBe(true);
    expect(once.slice(ICONS.length)).toBe(
      '\n// flowblocks: the icons of its blocks, by `flowblocks sim-blocks` (run it again, do not edit)\n\nexport function OneIcon() {}\n\n// flowblocks: end of its icons\n',
    );
    const twice = withSimIcons(once, ['export function TwoIcon() {}']);
    expect(twice).toBe(once.replace('OneIcon', 'TwoIcon'));
    expect(withSimIcons(twice, ['export function TwoIcon() {}'])).toBe(twice);
  });
});

describe('flowblocks sim-blocks', () => {
  function checkout(): string {
    const dir = mkdtempSync(join(tmpdir(), 'sim-native-'));
    mkdirSync(join(dir, 'apps/sim/blocks/blocks'), { recursive: true });
    mkdirSync(join(dir, 'apps/sim/components'), { recursive: true });
    writeFileSync(join(dir, SIM_ICONS_FILE), ICONS);
    writeFileSync(join(dir, SIM_REGISTRY_FILE), REGISTRY);
    return dir;
  }

  it('writes the block files, icons and registry lines; run again, writes nothing; --check passes, then fails on an edit', async () => {
    const dir = checkout();
    const first = await cli(['sim-blocks', dir]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.split('\n')).toEqual([
      'wrote apps/sim/blocks/blocks/flowblocks_tinybird.ts',
      'wrote apps/sim/blocks/blocks/flowblocks_loops.ts',
      'wrote apps/sim/blocks/blocks/flowblocks_workflow.ts',
      'wrote apps/sim/components/icons.tsx',
      'wrote apps/sim/blocks/registry-maps.ts',
      "5 of 5 files written; now run Sim's generators (bun run scripts/generate-docs.ts)",
      '',
    ]);
    expect(readFileSync(join(dir, 'apps/sim/blocks/blocks/flowblocks_loops.ts'), 'utf8')).toContain("type: 'flowblocks_loops',");
    expect(readFileSync(join(dir, SIM_ICONS_FILE), 'utf8')).toContain('export function FlowblocksWorkflowIcon(props: SVGProps<SVGSVGElement>) {');
    expect((await cli(['sim-blocks', dir])).stdout).toBe("0 of 5 files written; now run Sim's generators (bun run scripts/generate-docs.ts)\n");
    expect(await cli(['sim-blocks', dir, '--check'])).toEqual({ code: 0, stdout: '✓ flowblocks blocks: 5 files up to date\n', stderr: '' });
    writeFileSync(join(dir, 'apps/sim/blocks/blocks/flowblocks_loops.ts'), 'edited');
    const stale = await cli(['sim-blocks', dir, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^✗ apps\/sim\/blocks\/blocks\/flowblocks_loops\.ts: not what flowblocks \S+ writes \(run flowblocks sim-blocks\)\n$/);
    expect(readFileSync(join(dir, 'apps/sim/blocks/blocks/flowblocks_loops.ts'), 'utf8')).toBe('edited');
  });

  it('takes other prefixes; refuses a directory that is not a Sim checkout, and a missing one', async () => {
    const dir = checkout();
    expect((await cli(['sim-blocks', dir, '--id-prefix', 'acme_', '--block-type-prefix', 'acme_'])).code).toBe(0);
    expect(readFileSync(join(dir, 'apps/sim/blocks/blocks/acme_loops.ts'), 'utf8')).toContain("'acme_loops_send_event',");
    const notSim = await cli(['sim-blocks', tmpdir()]);
    expect(notSim.code).toBe(2);
    expect(notSim.stderr).toContain('has no apps/sim/blocks/blocks: not a Sim checkout');
    expect((await cli(['sim-blocks'])).stderr).toMatch(/^give one Sim checkout\n\nUsage: flowblocks sim-blocks/);
  });
});
