/**
 * The mutation check as CI runs it: Stryker over the mutated-set source files the commit being
 * checked changed, with no state kept in the repository (see docs/decisions.md, "CI
 * mutates only the files a change touched").
 *
 * - What changed: `git diff --name-only <base>...HEAD`, base from MUTATION_BASE or `HEAD~1`
 *   (on a merge commit HEAD~1 is the previous main, so a merge checks everything it brings),
 *   plus uncommitted and untracked files when run locally.
 * - Source files of the mutated set among them: those files are mutated (`--mutate`).
 * - Only tests changed: the mutated-set files named like the changed tests
 *   (`test/harness/retry.test.ts` → `src/harness/send/retry.ts`; `test/n8n-package/host-timers.test.ts`
 *   → `packages/n8n-nodes-flowblocks/src/host-timers.mts`), so a weakened test is caught
 *   where it matters; nothing when no name matches.
 * - Nothing of either: nothing to run.
 *
 * One Stryker config, stryker.config.json, one mutate list: the Redis code's tests (the
 * `mutation-redis` project of vitest.config.ts) need a real redis-server, which CI installs first.
 *
 * Each mutated file must reach the `break` threshold of its config, or, for a file
 * listed in scripts/mutation-floors.json (measured below it), its floor: touching a weak file
 * fails only when it gets weaker. The run must end within MUTATION_CI_MINUTES (default 6; 0 for
 * no limit), or the check fails and says what to do.
 * `--print` prints the Stryker command it would run, and runs nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { matcher, STRYKER_CONFIG, strykerConfig, type StrykerConfig } from '../test/mutation/mutated-files.js';

const MINUTES = Number(process.env.MUTATION_CI_MINUTES ?? 6);
const FLOORS = 'scripts/mutation-floors.json';

interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}

/** Stryker's mutation score of one file: detected / (detected + undetected), 100 with no valid mutant. */
function fileScore(mutants: readonly { status: string }[]): { score: number; detected: number; valid: number } {
  let detected = 0;
  let undetected = 0;
  for (const { status } of mutants) {
    if (status === 'Killed' || status === 'Timeout') detected++;
    else if (status === 'Survived' || status === 'NoCoverage') undetected++;
  }
  const valid = detected + undetected;
  return { score: valid ? (100 * detected) / valid : 100, detected, valid };
}

/** The files to mutate for a list of changed paths: changed sources, else sources named like changed tests. */
function filesToMutate(changed: readonly string[], isMutated: (file: string) => boolean, exists: (file: string) => boolean): { files: string[]; why: string } {
  const sources = changed.filter((file) => isMutated(file) && exists(file));
  if (sources.length > 0) return { files: sources, why: `${sources.length} mutated source file(s) changed` };
  const tests = changed.filter((file) => file.startsWith('test/') && file.endsWith('.test.ts'));
  if (tests.length === 0) return { files: [], why: 'no mutated source file and no test changed' };
  const names = new Set(tests.map((file) => basename(file, '.test.ts')));
  const candidates = execFileSync('git', ['ls-files', 'src', 'tools', 'packages'], { encoding: 'utf8' }).split('\n');
  // `host-timers.mts` of the n8n package is named like `host-timers.test.ts` too.
  const named = candidates.filter((file) => isMutated(file) && names.has(basename(file).replace(/\.m?ts$/, '')) && exists(file));
  return named.length > 0
    ? { files: named, why: `only tests changed; the mutated files named like them` }
    : { files: [], why: `only tests changed (${tests.length}), none named like a mutated file` };
}

function git(...args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

function changedFiles(base: string): string[] {
  const committed = git('diff', '--name-only', `${base}...HEAD`);
  const uncommitted = git('diff', '--name-only', 'HEAD');
  const untracked = git('ls-files', '--others', '--exclude-standard');
  return [...new Set([committed, uncommitted, untracked].flatMap((out) => out.split('\n')).filter(Boolean))];
}

/** Runs Stryker over `files` until `deadline`; the exit code, or 'late' when ended at the deadline. */
function stryker(config: StrykerConfig, files: readonly string[], deadline: number): Promise<number | 'late'> {
  const report = config.jsonReporter.fileName;
  mkdirSync(dirname(report), { recursive: true });
  rmSync(report, { force: true });
  // Its own process group, so a run past the time limit is ended with its test-runner workers.
  const child = spawn('node_modules/.bin/stryker', strykerArgs(files), { stdio: 'inherit', detached: true });
  let late = false;
  const timer =
    MINUTES > 0
      ? setTimeout(
          () => {
            late = true;
            process.kill(-child.pid!, 'SIGTERM');
          },
          Math.max(0, deadline - Date.now()),
        )
      : undefined;
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(late ? 'late' : (code ?? 1));
    }),
  );
}

function strykerArgs(files: readonly string[]): string[] {
  return ['run', STRYKER_CONFIG, '--mutate', files.join(','), '--reporters', 'clear-text,progress-append-only,json'];
}

async function main(): Promise<void> {
  const floors = (existsSync(FLOORS) ? JSON.parse(readFileSync(FLOORS, 'utf8')) : {}) as Record<string, number>;
  const base = process.env.MUTATION_BASE || 'HEAD~1';
  try {
    git('rev-parse', '--verify', '--quiet', `${base}^{commit}`);
  } catch {
    console.error(`mutation check FAILED: no commit ${base} to compare with (a shallow clone?): fetch the history, or set MUTATION_BASE`);
    process.exit(1);
  }
  const config = strykerConfig();
  const { files, why } = filesToMutate(changedFiles(base), matcher(config.mutate), existsSync);
  console.log(`mutation check: changes since ${base}: ${why}${files.length ? `: ${files.join(', ')}` : ''}`);
  if (files.length === 0) {
    console.log('mutation check: nothing to run');
    return;
  }
  if (process.argv.includes('--print')) {
    console.log(['npx', 'stryker', ...strykerArgs(files)].join(' '));
    return;
  }
  const started = Date.now();
  const code = await stryker(config, files, started + MINUTES * 60_000);
  if (code === 'late') {
    console.error(
      `mutation check FAILED: not done within ${MINUTES} min (${files.length} file(s): ${files.join(', ')}). ` +
        `Run it locally without the limit: MUTATION_BASE=${base} MUTATION_CI_MINUTES=0 npm run mutation:ci ` +
        `(or \`npx stryker run --mutate <file>\` file by file) and fix what it reports; then land the change in smaller commits, ` +
        `each touching fewer mutated files, so CI can check each within its time.`,
    );
    process.exit(1);
  }
  const reportFile = config.jsonReporter.fileName;
  if (!existsSync(reportFile)) {
    console.error(`mutation check FAILED: Stryker ended (exit ${code}) without a report`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
  let failed = 0;
  for (const file of files) {
    const { score, detected, valid } = fileScore(report.files[file]?.mutants ?? []);
    const required = Math.min(config.thresholds.break, floors[file] ?? config.thresholds.break);
    const ok = score >= required;
    if (!ok) failed++;
    console.log(`mutation check: ${ok ? 'ok' : 'FAILED'}: ${file} ${score.toFixed(1)} % (${detected}/${valid}), required ${required} %`);
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`mutation check: ${failed ? `FAILED for ${failed} file(s): add tests that kill the surviving mutants listed above (${dirname(reportFile)} shows them)` : 'ok'}, ${seconds} s`);
  process.exit(failed ? 1 : 0);
}

await main();
