/**
 * 4. Time to import one service's tools alone, the whole package, and `undici` alone (the
 * floor for any HTTP client), each in a fresh Node process, in alternating rounds.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './measure.js';
import type { RoundRatios } from './rounds.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const ENTRIES = ['flowblocks/tools/loops', 'flowblocks/tools/tinybird', 'flowblocks/tools/workflow', 'flowblocks'];
export const BASELINE = 'undici';

/** Imports `specifier` by the package's own name, as a user would, and returns the import's ms. */
export function importMs(specifier: string, cwd = ROOT): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd, encoding: 'utf8' }));
}

export interface ColdStart {
  /** Median ms per specifier. */
  ms: Record<string, number>;
  /** Per-round ratios of `entry` to `against`. */
  ratio(entry: string, against: string): RoundRatios;
}

/** Each round imports every specifier once, in an order that rotates, so drift hits all alike. */
export function coldStart({ runs = 9, specifiers = [...ENTRIES, BASELINE], cwd = ROOT } = {}): ColdStart {
  for (const s of specifiers) importMs(s, cwd); // warms the disk cache
  const rounds: Record<string, number>[] = [];
  for (let r = 0; r < runs; r++) {
    const round: Record<string, number> = {};
    for (let i = 0; i < specifiers.length; i++) {
      const s = specifiers[(i + r) % specifiers.length]!;
      round[s] = importMs(s, cwd);
    }
    rounds.push(round);
  }
  const ms = Object.fromEntries(specifiers.map((s) => [s, median(rounds.map((r) => r[s]!))]));
  return {
    ms,
    ratio(entry, against) {
      const ratios = rounds.map((r) => r[entry]! / r[against]!);
      return { flowblocks: ms[entry]!, baseline: ms[against]!, ratio: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)], rounds: runs };
    },
  };
}
