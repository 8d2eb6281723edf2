/** 4. Time to import one service's tools alone vs the whole package, each in a fresh Node process. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './measure.js';

export interface ColdStartRow {
  entry: string;
  importMs: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Imports `specifier` by the package's own name, as a user would, and returns the import's ms. */
function importMs(specifier: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

export function coldStart({ runs = 9 } = {}): ColdStartRow[] {
  return ['flowblocks/tools/loops', 'flowblocks/tools/tinybird', 'flowblocks/tools/workflow', 'flowblocks'].map((entry) => {
    importMs(entry); // warms the disk cache
    return { entry, importMs: median(Array.from({ length: runs }, () => importMs(entry))) };
  });
}
