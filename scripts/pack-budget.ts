/** The tarball budget: what `npm run check:pack` (scripts/check-pack-size.ts) enforces. */

// 300 kB at first (dist and docs alone); raised once for the engine adapters, 17 more tools and the
// literal tool types, whose inlined .d.ts (dist/tools/*/index.d.ts) are ~180 kB unpacked; raised
// again to 410 kB in #21: main stood at 400.7 kB (the Redis pacer and monitor of #19) and the
// three small harness modules of #21's fast paths (raw-bytes secret scan, bounded cache, call
// options) add 5.2 kB packed. Lowered to 370 kB once the bundled build (#21) took it to 346.6 kB
// (319 files instead of 523): a budget far above the tarball would let it grow unseen. Raised to
// 380 kB in #33: `flowblocks/testing` adds about 24 kB packed (its bundle with every tool's
// fixtures 14.0 kB, its declarations 7 kB, docs/testing-your-workflows.md 4.3 kB; gzip -9 of each),
// which took the tarball to 370.2 kB.
// 430 kB in #29 (with #33 and #32 merged): blocks/*.json (the block manifests with their tools' JSON Schemas, for hosts
// that read files, 29.1 kB gzipped) and flowblocks/sim/blocks (the editor's manifests as code,
// 12.1 kB gzipped) took the tarball to 394.1 kB (`npm run check:pack`).
// 460 kB after every branch of that round was merged: main packed at 445.2 kB (`npm run
// check:pack` in a clean clone's CI run), the rest being the n8n adapter's house style and
// resources, the sandbox's import limits and the harness's new checks.
export const BUDGET_BYTES = 460_000;
const SHOWN = 10;

export interface PackedFile { path: string; size: number }
export interface PackReport { size: number; unpackedSize: number; entryCount: number; files: PackedFile[] }

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

/** The summary line, and when over budget the error lines naming the largest files. */
export function judgePack(report: PackReport, budget = BUDGET_BYTES): { ok: boolean; summary: string; errors: string[] } {
  const summary = `tarball: ${kB(report.size)} packed, ${kB(report.unpackedSize)} unpacked, ${report.entryCount} files (budget ${kB(budget)} packed)`;
  if (report.size <= budget) return { ok: true, summary, errors: [] };
  const largest = [...report.files].sort((a, b) => b.size - a.size).slice(0, SHOWN);
  return {
    ok: false,
    summary,
    errors: [
      `The tarball is over its budget by ${kB(report.size - budget)}. Largest files:`,
      ...largest.map((file) => `  ${kB(file.size).padStart(9)}  ${file.path}`),
      'Leave them out in package.json "files", or raise BUDGET_BYTES in scripts/pack-budget.ts with a reason.',
    ],
  };
}
