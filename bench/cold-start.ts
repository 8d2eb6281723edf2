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

/**
 * Imports `specifier` by the package's own name, as a user would: the import's wall ms, and the
 * CPU ms (user + system) that process spent on it, which other processes on a shared machine
 * move much less than the wall clock.
 */
export function importCost(specifier: string, cwd = ROOT): { ms: number; cpuMs: number } {
  const script = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(specifier)}); const ms = performance.now() - t; const u = process.cpuUsage(c); console.log(ms, (u.user + u.system) / 1000);`;
  const [ms, cpuMs] = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd, encoding: 'utf8' }).trim().split(' ').map(Number);
  return { ms: ms!, cpuMs: cpuMs! };
}

export interface ColdStart {
  /** Median ms per specifier. */
  ms: Record<string, number>;
  /** Per-round ratios of `entry` to `against`, wall clock and CPU time of the importing processes. */
  ratio(entry: string, against: string): RoundRatios;
}

/** Each round imports every specifier once, in an order that rotates, so drift hits all alike. */
export function coldStart({ runs = 9, specifiers = [...ENTRIES, BASELINE], cwd = ROOT } = {}): ColdStart {
  for (const s of specifiers) importCost(s, cwd); // warms the disk cache
  const rounds: Record<string, { ms: number; cpuMs: number }>[] = [];
  for (let r = 0; r < runs; r++) {
    const round: Record<string, { ms: number; cpuMs: number }> = {};
    for (let i = 0; i < specifiers.length; i++) {
      const s = specifiers[(i + r) % specifiers.length]!;
      round[s] = importCost(s, cwd);
    }
    rounds.push(round);
  }
  const ms = Object.fromEntries(specifiers.map((s) => [s, median(rounds.map((r) => r[s]!.ms))]));
  return {
    ms,
    ratio(entry, against) {
      const ratios = rounds.map((r) => r[entry]!.ms / r[against]!.ms);
      const cpuRatio = median(rounds.map((r) => r[entry]!.cpuMs / r[against]!.cpuMs));
      return { flowblocks: ms[entry]!, baseline: ms[against]!, ratio: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)], rounds: runs, cpuRatio };
    },
  };
}
