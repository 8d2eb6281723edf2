/**
 * Applies the Sim registry lines of docs/engines.md to a Sim checkout, as a fork would type
 * them (scripts/sim-trial.sh runs it): every `ts` block of the doc whose first line is
 * `// apps/sim/<file> (new file)` is written as that file; in every other block headed
 * `// apps/sim/<file>`, its `import` lines go at the top of that file and each `...spread,`
 * line goes at the end of the map the block's nearest `export const NAME` opens. Run again, it
 * changes nothing. Reading the doc, not a copy of it, keeps the doc and the trial one story.
 *
 *   tsx scripts/sim-trial/apply-registry.ts <sim-checkout>
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { importStatements } from '../../src/hosts/sim/import-statements.js';

const HEADER = /^\/\/ (apps\/sim\/\S+)( \(new file\))?$/;

export interface RegistryEdit {
  file: string;
  newFile: boolean;
  lines: string[];
}

/** The doc's blocks that edit a Sim file, in order. */
export function registryEdits(markdown: string): RegistryEdit[] {
  const edits: RegistryEdit[] = [];
  for (const match of markdown.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const lines = (match[1] ?? '').split('\n');
    const header = HEADER.exec(lines[0] ?? '');
    if (!header?.[1]) continue;
    edits.push({ file: header[1], newFile: Boolean(header[2]), lines: lines.slice(1) });
  }
  return edits;
}

/** Sim's import groups (biome.json `organizeImports`): packages, then `@/` aliases; sorted by module within each. */
function importGroup(from: string): number {
  return from.startsWith('@/') ? 1 : 0;
}

/** `line` where Sim's biome puts it: before the first import of its group that sorts after it, else after its group. */
function insertImport(lines: string[], line: string): void {
  const from = / from '([^']+)'$/.exec(line)?.[1] ?? '';
  const statements = importStatements(lines);
  const later = statements.find((s) => importGroup(s.from) > importGroup(from) || (importGroup(s.from) === importGroup(from) && s.from > from));
  const last = statements.at(-1);
  // After a leading directive ('use client') when the file has no import yet.
  const at = later ? later.start : last ? last.end + 1 : /^['"]use (client|server)['"]/.test(lines[0] ?? '') ? 1 : 0;
  lines.splice(at, 0, line);
}

/** `source` with the block's imports and spreads in place; unchanged when they are there already. */
export function applyEdit(source: string, edit: RegistryEdit): string {
  const lines = source.split('\n');
  for (const line of edit.lines) if (line.startsWith('import ') && !lines.includes(line)) insertImport(lines, line);
  let map: string | undefined;
  for (const line of edit.lines) {
    const opened = /^export const (\w+)/.exec(line);
    if (opened) map = opened[1];
    if (!/^\s+\.\.\.[\w.]+,$/.test(line)) continue;
    if (!map) throw new Error(`${edit.file}: "${line.trim()}" is under no export const in docs/engines.md`);
    const start = lines.findIndex((l) => l.startsWith(`export const ${map}`));
    if (start < 0) throw new Error(`${edit.file}: no "export const ${map}" in the Sim file`);
    const end = lines.findIndex((l, i) => i > start && l === '}');
    if (end < 0) throw new Error(`${edit.file}: the map ${map} has no closing "}" at the start of a line`);
    if (lines.slice(start, end).includes(line)) continue;
    lines.splice(end, 0, line);
  }
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const sim = process.argv[2];
  if (!sim || !existsSync(join(sim, 'apps', 'sim'))) {
    console.error('usage: tsx scripts/sim-trial/apply-registry.ts <sim-checkout> (a directory with apps/sim)');
    process.exit(2);
  }
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'engines.md'), 'utf8');
  for (const edit of registryEdits(doc)) {
    const path = join(sim, edit.file);
    if (edit.newFile) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${edit.lines.join('\n').trimEnd()}\n`);
      console.log(`wrote ${edit.file}`);
    } else {
      writeFileSync(path, applyEdit(readFileSync(path, 'utf8'), edit));
      console.log(`edited ${edit.file}`);
    }
  }
}
