/**
 * A Sim-native block file, `apps/sim/blocks/blocks/flowblocks_<service>.ts`, as
 * `flowblocks sim-blocks` writes it: a `BlockConfig` and its `BlockMeta` in Sim's layout. Sim's
 * docs and catalog generators (`scripts/generate-docs.ts`) read block files as text, so the
 * fields they read are spelled out here (type, name, descriptions, docs link, category,
 * integration type, colour, icon, the operation's options, the tool ids, the tags); every
 * other part is `simNativeBlock(...)`'s, read from the package when Sim loads the file.
 */
import type { BlockManifest } from '../../blocks/manifest.js';
import { toSimBlockConfig, toSimBlockMetaOf, type SimBlockOptions } from './block-config.js';
import type { SimNativeBlockOptions } from './native-block.js';
import { jsString, literalArray, pascalCase, property } from './native-source.js';

/** Sim's `IntegrationType` members by value (apps/sim/blocks/types.ts, Sim 0b232eb): the file names the member. */
const INTEGRATION_TYPE_MEMBERS: ReadonlyMap<string, string> = new Map(
  ['AI', 'Analytics', 'Commerce', 'Communication', 'Databases', 'DevOps', 'Documents', 'Email', 'HR', 'Marketing', 'Observability', 'Productivity', 'Sales', 'Search', 'Security', 'Support'].map(
    (member) => [member.toLowerCase(), member] as const,
  ),
);

/** The names a native block's file and exports take in Sim, from its adapted type. */
export function simNativeNames(adaptedType: string): { file: string; block: string; meta: string; icon: string } {
  const base = pascalCase(adaptedType);
  return { file: `apps/sim/blocks/blocks/${adaptedType}.ts`, block: `${base}Block`, meta: `${base}BlockMeta`, icon: `${base}Icon` };
}

/** The options of `simNativeBlock(...)` in the file: only those that differ from the defaults. */
function optionsArgument(options: SimNativeBlockOptions): string {
  const entries = Object.entries(options).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return '';
  return `, { ${entries.map(([key, value]) => `${key}: ${jsString(String(value))}`).join(', ')} }`;
}

/** The text of the block file of `manifest`; `version` is the package's, named in its header. */
export function simNativeBlockFile(manifest: BlockManifest, version: string, options: SimNativeBlockOptions = {}): { path: string; text: string } {
  const simOptions: SimBlockOptions<null> = { ...options, catalog: 'listed', docsLink: 'sim', createElement: () => null };
  const config = toSimBlockConfig(manifest, simOptions);
  const meta = toSimBlockMetaOf(manifest);
  const names = simNativeNames(config.type);
  const kind = manifest.catalog?.kind ?? '';
  const member = INTEGRATION_TYPE_MEMBERS.get(kind);
  if (!member) throw new Error(`block ${manifest.type}: its catalog kind "${kind}" is not one of Sim's integration types (${[...INTEGRATION_TYPE_MEMBERS.keys()].join(', ')})`);
  const operation = config.subBlocks.find((sub) => sub.id === 'operation');
  const lines = [
    "import { simNativeBlock } from 'flowblocks/sim/blocks'",
    `import { ${names.icon} } from '@/components/icons'`,
    "import type { BlockConfig, BlockMeta } from '@/blocks/types'",
    "import { AuthMode, IntegrationType } from '@/blocks/types'",
    '',
    '/**',
    ` * ${manifest.name} through flowblocks, written by \`flowblocks sim-blocks\` from flowblocks ${version}:`,
    ' * run it again after every upgrade instead of editing this file. The fields spelled out are',
    " * what Sim's docs and catalog generators read; the rest is the package's.",
    ' */',
    `const block = simNativeBlock(${jsString(manifest.type)}${optionsArgument(options)})`,
    '',
    `export const ${names.block}: BlockConfig = {`,
    property('  ', 'type', jsString(config.type)),
    property('  ', 'name', jsString(config.name)),
    property('  ', 'description', jsString(config.description)),
    '  authMode: AuthMode.ApiKey,',
    property('  ', 'longDescription', jsString(config.longDescription ?? config.description)),
    property('  ', 'docsLink', jsString(config.docsLink ?? '')),
    "  category: 'tools',",
    `  integrationType: IntegrationType.${member},`,
    property('  ', 'bgColor', jsString(config.bgColor)),
    `  icon: ${names.icon},`,
    '  canvasPresentation: block.canvasPresentation,',
    '  subBlocks: [',
    '    {',
    '      ...block.operation,',
    "      id: 'operation',",
    '      options: [',
    ...(operation?.options ?? []).map(({ id, label }) => `        { label: ${jsString(label)}, id: ${jsString(id)} },`),
    '      ],',
    '    },',
    '    ...block.fields,',
    '  ],',
    '  tools: {',
    literalArray('    ', 'access', config.tools.access.map(jsString)),
    '    config: block.tools.config,',
    '  },',
    '  inputs: block.inputs,',
    '  outputs: block.outputs,',
    '}',
    '',
    `export const ${names.meta}: BlockMeta = {`,
    literalArray('  ', 'tags', meta.tags.map(jsString)),
    ...(meta.url ? [property('  ', 'url', jsString(meta.url))] : []),
    '}',
    '',
  ];
  return { path: names.file, text: lines.join('\n') };
}
