/**
 * n8n's own checks on `n8n-nodes-flowblocks` (`npm run check:n8n`):
 *
 * - the analyzer of `@n8n/scan-community-package` (`analyzePackage(dir)`) on the packed tarball,
 *   unpacked: what n8n's scan of a published package runs on its files;
 * - `n8n-node lint` (`@n8n/node-cli`) on the package's committed `.ts` sources of the nodes and
 *   credentials (nodes/, credentials/, generated from the blocks by scripts/n8n-node-sources.ts),
 *   with its eslint.config.mjs, package.json, icons and codex files.
 *
 * Both tools are installed once into the cache (`FLOWBLOCKS_N8N_CACHE`, default
 * /var/cache/flowblocks) with `--ignore-scripts`. Prints each tool's error count; exits 1
 * when either reports an error (`--report` prints the counts and exits 0).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { buildN8nPackage } from './build-n8n-package.js';
import { CACHE_DIR, NODE24 } from './n8n-host.js';

const TOOLS = { '@n8n/node-cli': '0.48.3', '@n8n/scan-community-package': '0.32.0' };
const TOOLS_DIR = join(CACHE_DIR, 'n8n-tools');

function ensureTools(): void {
  if (existsSync(join(TOOLS_DIR, '.installed'))) return;
  mkdirSync(TOOLS_DIR, { recursive: true });
  writeFileSync(join(TOOLS_DIR, 'package.json'), `${JSON.stringify({ name: 'n8n-tools', private: true })}\n`);
  const specs = Object.entries(TOOLS).map(([name, version]) => `${name}@${version}`);
  execFileSync('npm', ['i', ...specs, '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: TOOLS_DIR, stdio: 'inherit' });
  writeFileSync(join(TOOLS_DIR, '.installed'), `${JSON.stringify(TOOLS)}\n`);
}

/** The scanner's analyzer on the unpacked tarball: its error count and its report. */
function scan(packageDir: string): { errors: number; report: string } {
  const script = `import { analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs';
const r = await analyzePackage(${JSON.stringify(packageDir)});
console.log(r.details ?? r.message ?? 'passed');
process.exitCode = r.passed ? 0 : 1;`;
  const file = join(TOOLS_DIR, 'flowblocks-scan.mjs');
  writeFileSync(file, script);
  const out = spawnSync(process.execPath, [file], { cwd: TOOLS_DIR, encoding: 'utf8' });
  const report = `${out.stdout}${out.stderr}`;
  return { errors: problems(report, out.status), report };
}

/**
 * `✖ 214 problems (214 errors, 0 warnings)`: the errors. A tool that failed with no count (it
 * crashed, or could not read the package) is one error, never a pass.
 */
function problems(report: string, status: number | null): number {
  // eslint's summary may be coloured.
  const plain = stripVTControlCharacters(report);
  const match = /\((\d+) errors?, (\d+) warnings?\)/.exec(plain);
  const counted = match ? Number(match[1]) : 0;
  return status === 0 ? counted : Math.max(counted, 1);
}

/** `n8n-node lint` over the package's committed sources (nodes/, credentials/, eslint.config.mjs, package.json), as its publisher runs it. */
function lint(packageDir: string): { errors: number; report: string } {
  const dir = mkdtempSync(join(tmpdir(), 'n8n-lint-'));
  try {
    for (const entry of ['package.json', 'eslint.config.mjs', 'nodes', 'credentials', 'dist']) cpSync(join(packageDir, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(TOOLS_DIR, 'node_modules'), join(dir, 'node_modules'));
    // n8n-node runs on Node 24 as n8n does; its eslint is the tools' own.
    const out = spawnSync(existsSync(NODE24) ? NODE24 : process.execPath, [join(TOOLS_DIR, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'lint'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${join(TOOLS_DIR, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, CI: '1' },
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
  ensureTools();
  const { dir } = await buildN8nPackage();
  const linted = lint(dir);
  let scanned = { errors: 0, report: '(skipped: --lint-only)' };
  if (!process.argv.includes('--lint-only')) {
    const tarball = unpacked(dir);
    scanned = scan(tarball);
    rmSync(join(tarball, '..'), { recursive: true, force: true });
  }
  if (process.argv.includes('--verbose')) console.log(linted.report, scanned.report);
  console.log(`n8n-node lint: ${linted.errors} errors`);
  console.log(`scan-community-package analyzePackage: ${scanned.errors} errors`);
  if (!process.argv.includes('--report') && (linted.errors || scanned.errors)) process.exit(1);
}
