/**
 * Fails when the published tarball grows past its budget, naming the largest files, so a
 * screenshot or a build artefact cannot slip into what every user downloads.
 * Reads `npm pack --dry-run --json` (the files npm would publish); run after a build.
 */
import { execFileSync } from 'node:child_process';

const BUDGET_BYTES = 300_000;
const SHOWN = 10;

interface PackedFile { path: string; size: number }
interface PackReport { size: number; unpackedSize: number; entryCount: number; files: PackedFile[] }

const json = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const [report] = JSON.parse(json) as PackReport[];
if (!report) throw new Error('npm pack --dry-run --json printed no report');

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const largest = [...report.files].sort((a, b) => b.size - a.size).slice(0, SHOWN);
console.log(`tarball: ${kB(report.size)} packed, ${kB(report.unpackedSize)} unpacked, ${report.entryCount} files (budget ${kB(BUDGET_BYTES)} packed)`);
if (report.size > BUDGET_BYTES) {
  console.error(`The tarball is over its budget by ${kB(report.size - BUDGET_BYTES)}. Largest files:`);
  for (const file of largest) console.error(`  ${kB(file.size).padStart(9)}  ${file.path}`);
  console.error('Leave them out in package.json "files", or raise BUDGET_BYTES in scripts/check-pack-size.ts with a reason.');
  process.exit(1);
}
