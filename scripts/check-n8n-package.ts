/**
 * n8n's own checks on `n8n-nodes-flowblocks` (`npm run check:n8n`):
 *
 * - the analyzer of `@n8n/scan-community-package` as its scan of a published package
 *   (`analyzePackageByName`) runs it, on both of its legs: the package's committed sources with
 *   the full rule set (`SOURCE_FILE_PATTERNS`: package.json, nodes/, credentials/; n8n reads them
 *   from the GitHub commit the provenance names) and the packed tarball, unpacked, scoped to its
 *   compiled `.js` and package.json (tsc's `.d.ts` only false-positive on filename rules there);
 * - `n8n-node lint` (`@n8n/node-cli`) on the package's committed `.ts` sources of the nodes and
 *   credentials (nodes/, credentials/, generated from the blocks by scripts/n8n-node-sources.ts),
 *   with its eslint.config.mjs, package.json, icons and codex files.
 *
 * Both tools are installed once into the cache (scripts/n8n-tools.ts). Prints each tool's error
 * count; exits 1 when either reports an error (`--report` prints the counts and exits 0).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { buildN8nPackage } from './build-n8n-package.js';
import { NODE24 } from './n8n-host.js';
import { N8N_TOOLS_BIN, N8N_TOOLS_DIR as TOOLS_DIR } from './n8n-tools.js';

/** The scanner's analyzer on the package's sources and on its unpacked tarball, as `analyzePackageByName` runs it: the error count and the report. */
function scan(sourceDir: string, tarballDir: string): { errors: number; report: string } {
  const script = `import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';
const results = [await analyzePackage(${JSON.stringify(sourceDir)}, SOURCE_FILE_PATTERNS), await analyzePackage(${JSON.stringify(tarballDir)}, ['**/*.js', 'package.json'])];
for (const r of results) console.log(r.details ?? r.message ?? 'passed');
process.exitCode = results.every((r) => r.passed) ? 0 : 1;`;
  const file = join(TOOLS_DIR, 'flowblocks-scan.mjs');
  writeFileSync(file, script);
  const out = spawnSync(process.execPath, [file], { cwd: TOOLS_DIR, encoding: 'utf8' });
  const report = `${out.stdout}${out.stderr}`;
  return { errors: problems(report, out.status), report };
}

/**
 * `✖ 214 problems (214 errors, 0 warnings)`: the errors, summed over the runs reported. A tool that failed with no count (it
 * crashed, or could not read the package) is one error, never a pass.
 */
export function problems(report: string, status: number | null): number {
  // eslint's summary may be coloured.
  const plain = stripVTControlCharacters(report);
  // One summary per eslint run: the scanner's two legs print one each.
  const counted = [...plain.matchAll(/\((\d+) errors?, \d+ warnings?\)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  return status === 0 ? counted : Math.max(counted, 1);
}

/** `n8n-node lint` over the package's committed sources (nodes/, credentials/, lib/, eslint.config.mjs, tsconfig.json, package.json), as its publisher runs it. */
function lint(packageDir: string): { errors: number; report: string } {
  const dir = mkdtempSync(join(tmpdir(), 'n8n-lint-'));
  try {
    for (const entry of ['package.json', 'eslint.config.mjs', 'tsconfig.json', 'nodes', 'credentials', 'lib', 'dist']) cpSync(join(packageDir, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(TOOLS_DIR, 'node_modules'), join(dir, 'node_modules'));
    // n8n-node runs on Node 24 as n8n does; its eslint is the tools' own.
    const out = spawnSync(existsSync(NODE24) ? NODE24 : process.execPath, [join(TOOLS_DIR, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'lint'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${N8N_TOOLS_BIN}:${process.env.PATH ?? ''}`, CI: '1' },
    });
    const report = `${out.stdout}${out.stderr}`;
    return { errors: problems(report, out.status), report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Packs the package and unpacks the tarball, as the scanner reads a published one. */
function unpacked(packageDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'n8n-scan-'));
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: packageDir, stdio: 'ignore' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  mkdirSync(join(dir, 'package'));
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', join(dir, 'package'), '--strip-components=1']);
  return join(dir, 'package');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { dir } = await buildN8nPackage();
  const linted = lint(dir);
  let scanned = { errors: 0, report: '(skipped: --lint-only)' };
  if (!process.argv.includes('--lint-only')) {
    const tarball = unpacked(dir);
    scanned = scan(dir, tarball);
    rmSync(join(tarball, '..'), { recursive: true, force: true });
  }
  if (process.argv.includes('--verbose')) console.log(linted.report, scanned.report);
  console.log(`n8n-node lint: ${linted.errors} errors`);
  console.log(`scan-community-package analyzePackage: ${scanned.errors} errors`);
  if (!process.argv.includes('--report') && (linted.errors || scanned.errors)) process.exit(1);
}
