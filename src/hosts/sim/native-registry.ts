/**
 * The lines a Sim checkout's own files need for the native blocks of `flowblocks sim-blocks`:
 * an import and an entry per block in `apps/sim/blocks/registry-maps.ts` (`BLOCK_REGISTRY`,
 * `BLOCK_META_REGISTRY`), each where Sim keeps it sorted, and the icons as one marked region at
 * the end of `apps/sim/components/icons.tsx`. Each edit is idempotent: run again, it changes
 * nothing, and a newer region replaces the older one.
 */
import { importStatements } from './import-statements.js';
import { SIM_LINE_WIDTH } from './native-source.js';

export interface SimRegistryEntry {
  /** The adapted block type, the key in both maps. */
  type: string;
  /** The module of the block file: `@/blocks/blocks/flowblocks_tinybird`. */
  module: string;
  block: string;
  meta: string;
}

const BLOCK_MODULES = '@/blocks/blocks/';

/** `import { a, b } from 'module'`, one name a line when it does not fit (as biome prints it). */
function importLines(names: readonly string[], from: string): string[] {
  const line = `import { ${names.join(', ')} } from '${from}'`;
  return line.length <= SIM_LINE_WIDTH ? [line] : ['import {', ...names.map((name) => `  ${name},`), `} from '${from}'`];
}

/** The import of `names` among the block imports, before the first that sorts after it (biome's order: by module). */
function insertImport(lines: string[], names: readonly string[], from: string): void {
  const statements = importStatements(lines);
  if (statements.some((s) => s.from === from)) return;
  const blocks = statements.filter((s) => s.from.startsWith(BLOCK_MODULES));
  const later = blocks.find((s) => s.from.toLowerCase() > from.toLowerCase());
  const last = blocks.at(-1);
  if (!later && !last) throw new Error(`registry-maps.ts imports no ${BLOCK_MODULES}… module: not Sim's file`);
  lines.splice(later ? later.start : last!.end + 1, 0, ...importLines(names, from));
}

/** `  key: Value,` in the map `name` opens, before the first key that sorts after it. */
function insertEntry(lines: string[], map: string, key: string, value: string): void {
  const start = lines.findIndex((l) => l.startsWith(`export const ${map}`));
  if (start < 0) throw new Error(`registry-maps.ts has no "export const ${map}"`);
  const end = lines.findIndex((l, i) => i > start && l === '}');
  if (end < 0) throw new Error(`registry-maps.ts: the map ${map} has no closing "}" at the start of a line`);
  const entry = `  ${key}: ${value},`;
  if (lines.slice(start, end).includes(entry)) return;
  const later = lines.findIndex((l, i) => i > start && i < end && /^ {2}\w+:/.test(l) && l.trim().split(':')[0]! > key);
  lines.splice(later > 0 ? later : end, 0, entry);
}

/** `apps/sim/blocks/registry-maps.ts` with an import and both map entries of every block. */
export function withSimRegistryEntries(source: string, entries: readonly SimRegistryEntry[]): string {
  const lines = source.split('\n');
  for (const entry of entries) {
    insertImport(lines, [entry.block, entry.meta], entry.module);
    insertEntry(lines, 'BLOCK_REGISTRY', entry.type, entry.block);
    insertEntry(lines, 'BLOCK_META_REGISTRY', entry.type, entry.meta);
  }
  return lines.join('\n');
}

const REGION_START = '// flowblocks: the icons of its blocks, by `flowblocks sim-blocks` (run it again, do not edit)';
const REGION_END = '// flowblocks: end of its icons';

/** `apps/sim/components/icons.tsx` with `components` as the flowblocks region at its end (replacing an earlier one). */
export function withSimIcons(source: string, components: readonly string[]): string {
  const region = [REGION_START, '', components.join('\n\n'), '', REGION_END, ''].join('\n');
  const start = source.indexOf(REGION_START);
  if (start >= 0) {
    const end = source.indexOf(REGION_END, start);
    if (end < 0) throw new Error(`icons.tsx has the flowblocks region's first line and not its last ("${REGION_END}")`);
    return source.slice(0, start) + region + source.slice(end + REGION_END.length + 1);
  }
  return `${source.trimEnd()}\n\n${region}`;
}
