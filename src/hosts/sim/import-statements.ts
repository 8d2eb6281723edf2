/**
 * The import statements at the top of a Sim source file, as Sim's formatter (biome) prints them:
 * `import … from '…'` on one line or over several, and a side-effect `import '…'` on one.
 * Both the `sim-blocks` registry edit and the Sim trial's edit of a checkout read them here.
 */

export interface ImportStatement {
  /** The statement's first and last line (0-based). */
  start: number;
  end: number;
  /** The module it names. */
  from: string;
}

const FROM = / from '([^']+)'$/;
const SIDE_EFFECT = /^import '([^']+)'$/;

/** Each import statement of `lines`; an `import` whose module is not where biome puts it is refused, naming its line. */
export function importStatements(lines: readonly string[]): ImportStatement[] {
  const statements: ImportStatement[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('import ')) continue;
    const sideEffect = SIDE_EFFECT.exec(line)?.[1];
    if (sideEffect !== undefined) {
      statements.push({ start: i, end: i, from: sideEffect });
      continue;
    }
    let end = i;
    while (end < lines.length && !lines[end]!.startsWith('import \'') && !FROM.test(lines[end]!)) end++;
    const from = FROM.exec(lines[end] ?? '')?.[1];
    if (from === undefined) throw new Error(`an import at line ${i + 1} has no "from '…'" where Sim's formatter puts it`);
    statements.push({ start: i, end, from });
    i = end;
  }
  return statements;
}
