/** The tarball budget: what `npm run check:pack` (scripts/check-pack-size.ts) enforces. */

// Kept a little above the tarball, so growth is seen; what ships and why is in docs/decisions.md
// ("What the tarball carries"), the figure over time in docs/benchmarks.md ("Tarball").
export const BUDGET_BYTES = 295_000;
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
