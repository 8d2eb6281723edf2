/**
 * Two builds of the package side by side, cold start only (how the bundled build of #21 was
 * measured against tsc's output):
 *   npx tsx bench/compare-builds.ts <dir A> <dir B> [rounds]
 * Each dir holds a copy of package.json, a dist/ and a node_modules (a symlink to this one's).
 * Each round imports every entry and `undici` in fresh processes, once per build, the builds'
 * order alternating and the entries' rotating; per-round ratios to `undici` of the same build
 * and round, and of B to A, wall clock and the importing processes' CPU time.
 */
import { basename, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { BASELINE, ENTRIES, importCost } from './cold-start.js';
import { median } from './measure.js';

const [a, b, runsArg] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: npx tsx bench/compare-builds.ts <dir A> <dir B> [rounds]');
const builds = [resolve(a), resolve(b)] as const;
const runs = Number(runsArg ?? 15);
const specifiers = [...ENTRIES, BASELINE];
type Cost = { ms: number; cpuMs: number };

for (const dir of builds) for (const s of specifiers) importCost(s, dir); // warms the disk cache
const rounds: Cost[][][] = []; // [round][build][specifier]
for (let r = 0; r < runs; r++) {
  const round: Cost[][] = [[], []];
  for (const k of r % 2 ? [1, 0] : [0, 1]) {
    for (let i = 0; i < specifiers.length; i++) {
      const j = (i + r) % specifiers.length;
      round[k]![j] = importCost(specifiers[j]!, builds[k]);
    }
  }
  rounds.push(round);
}

const f = (n: number) => n.toFixed(2);
const summary = (values: number[]) => `${f(median(values))}× (${f(Math.min(...values))}–${f(Math.max(...values))})`;
const base = specifiers.length - 1;
console.log(`${runs} rounds, load ${loadavg().map((l) => l.toFixed(2)).join(', ')}; A = ${basename(builds[0])}, B = ${basename(builds[1])}`);
for (const metric of ['ms', 'cpuMs'] as const) {
  console.log(`\n${metric === 'ms' ? 'wall clock' : 'CPU time'}: median ms, median ratio to undici (range), median B / A (range)\n`);
  console.log('| import | A | B | B / A |\n|---|---|---|---|');
  specifiers.forEach((s, j) => {
    const cell = (k: number) => `${median(rounds.map((r) => r[k]![j]![metric])).toFixed(1)} ms, ${summary(rounds.map((r) => r[k]![j]![metric] / r[k]![base]![metric]))}`;
    console.log(`| ${s} | ${cell(0)} | ${cell(1)} | ${summary(rounds.map((r) => r[1]![j]![metric] / r[0]![j]![metric]))} |`);
  });
}
