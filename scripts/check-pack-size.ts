/**
 * Fails when the published tarball grows past its budget, naming the largest files, so a
 * screenshot or a build artefact cannot slip into what every user downloads.
 * Reads `npm pack --dry-run --json` (the files npm would publish); run after a build.
 */
import { execFileSync } from 'node:child_process';
import { judgePack, type PackReport } from './pack-budget.js';

const json = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const [report] = JSON.parse(json) as PackReport[];
if (!report) throw new Error('npm pack --dry-run --json printed no report');

const verdict = judgePack(report);
console.log(verdict.summary);
for (const line of verdict.errors) console.error(line);
if (!verdict.ok) process.exit(1);
