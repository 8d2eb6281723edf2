/**
 * The mutation check as CI runs it: Stryker's incremental mode over what changed since the
 * committed state (`.stryker/incremental.json`) was last refreshed, so CI pays only for the
 * mutants of changed code, not for the whole run (see docs/testing.md for its times).
 *
 * - Source files of the mutated set that changed since the state's commit (or in the working
 *   tree): only those are mutated (`--mutate`), their unchanged mutants taken from the state.
 * - Only tests or the mutation config changed: the whole set, incrementally (Stryker re-runs
 *   the mutants whose covering tests changed).
 * - Nothing of either changed: nothing to run.
 *
 * The score of what was mutated must reach the `break` threshold of stryker.config.json, or,
 * for files already below it, the score the committed state has for them (no file may get
 * worse; touching a weak file does not fail the change). The run must end within
 * MUTATION_CI_MINUTES (default 10): past it the check fails and asks for the state to be
 * refreshed (`npm run mutation`, then commit `.stryker/incremental.json`).
 * The committed state is never rewritten here: Stryker works on a copy under reports/.
 * `--print` prints the Stryker command it would run, and runs nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const STATE = '.stryker/incremental.json';
const COPY = 'reports/mutation/ci-incremental.json';
const MINUTES = Number(process.env.MUTATION_CI_MINUTES ?? 10);
const REPORT = 'reports/mutation/mutation.json';

interface StrykerConfig {
  mutate: string[];
  vitest: { configFile: string };
  thresholds: { break: number };
}

interface Report {
  files: Record<string, { mutants: { status: string }[] }>;
}

/** Stryker's mutation score over the given files (all when none): detected / (detected + undetected). */
function score(report: Report, files?: readonly string[]): { score: number; valid: number } {
  let detected = 0;
  let undetected = 0;
  for (const [file, { mutants }] of Object.entries(report.files)) {
    if (files && !files.includes(file)) continue;
    for (const { status } of mutants) {
      if (status === 'Killed' || status === 'Timeout') detected++;
      else if (status === 'Survived' || status === 'NoCoverage') undetected++;
    }
  }
  const valid = detected + undetected;
  return { score: valid ? (100 * detected) / valid : 100, valid };
}

/** `*` within a path segment, `**` across segments: the globs stryker.config.json uses. */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else source += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function matcher(globs: string[]): (file: string) => boolean {
  const include = globs.filter((g) => !g.startsWith('!')).map(globToRegExp);
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => globToRegExp(g.slice(1)));
  return (file) => include.some((re) => re.test(file)) && !exclude.some((re) => re.test(file));
}

function git(...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

const config = JSON.parse(readFileSync('stryker.config.json', 'utf8')) as StrykerConfig;
const isMutated = matcher(config.mutate);
const isTestInput = (file: string) =>
  file.startsWith('test/') || file === config.vitest.configFile || file === 'stryker.config.json' || file === 'package-lock.json';

let mutated: string[] | undefined;
const base = existsSync(STATE) ? git('log', '-1', '--format=%H', '--', STATE) : undefined;
let changed: string[] | undefined;
if (base) {
  const diff = git('diff', '--name-only', base, '--');
  const untracked = git('ls-files', '--others', '--exclude-standard');
  if (diff !== undefined && untracked !== undefined) changed = [...diff.split('\n'), ...untracked.split('\n')].filter(Boolean);
}

const args = ['run', '--incremental', '--incrementalFile', COPY, '--reporters', 'clear-text,progress-append-only,json'];
if (changed === undefined) {
  console.log(`mutation check: no committed state or no git history to compare with: the whole set, incrementally`);
} else {
  const sources = changed.filter(isMutated);
  const tests = changed.filter(isTestInput);
  console.log(`mutation check: since ${base!.slice(0, 12)} (the state's commit), ${sources.length} mutated source file(s) and ${tests.length} test or config file(s) changed`);
  if (sources.length > 0) {
    mutated = sources;
    args.push('--mutate', sources.join(','));
  }
  else if (tests.length === 0) {
    console.log('mutation check: nothing to run');
    process.exit(0);
  }
}

if (process.argv.includes('--print')) {
  console.log(['stryker', ...args].join(' '));
  process.exit(0);
}
mkdirSync('reports/mutation', { recursive: true });
if (existsSync(STATE)) copyFileSync(STATE, COPY);
rmSync(REPORT, { force: true });
const before = existsSync(STATE) ? score(JSON.parse(readFileSync(STATE, 'utf8')) as Report, mutated) : undefined;
const required = Math.min(config.thresholds.break, before && before.valid > 0 ? Math.floor(before.score * 100) / 100 : config.thresholds.break);
const started = Date.now();
// Its own process group, so a run past the time limit is ended with its test-runner workers.
const child = spawn('node_modules/.bin/stryker', args, { stdio: 'inherit', detached: true });
let late = false;
const timer = setTimeout(() => {
  late = true;
  process.kill(-child.pid!, 'SIGTERM');
}, MINUTES * 60_000);
child.on('exit', (code) => {
  clearTimeout(timer);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (late) {
    console.error(
      `mutation check: not done within ${MINUTES} min. Too much changed since the state was refreshed: run \`npm run mutation\` and commit ${STATE}.`,
    );
    process.exit(1);
  }
  // Stryker's own exit code applies the break threshold to the files it ran; the rule above is ours.
  if (!existsSync(REPORT)) {
    console.error(`mutation check: Stryker ended (exit ${code}) without a report`);
    process.exit(1);
  }
  const after = score(JSON.parse(readFileSync(REPORT, 'utf8')) as Report, mutated);
  const verdict = after.score >= required ? 'ok' : 'FAILED';
  console.log(
    `mutation check: ${verdict}: score ${after.score.toFixed(2)} % of ${after.valid} mutants${mutated ? ` in ${mutated.length} changed file(s)` : ''}, ` +
      `required ${required} % (threshold ${config.thresholds.break} %${before ? `, state ${before.score.toFixed(2)} %` : ''}), ${seconds} s`,
  );
  process.exit(verdict === 'ok' ? 0 : 1);
});
