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
 * The score of what was mutated must reach the `break` threshold of stryker.config.json, and
 * the run must end within MUTATION_CI_MINUTES (default 12): past it the check fails and asks
 * for the state to be refreshed (`npm run mutation`, then commit `.stryker/incremental.json`).
 * The committed state is never rewritten here: Stryker works on a copy under reports/.
 * `--print` prints the Stryker command it would run, and runs nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';

const STATE = '.stryker/incremental.json';
const COPY = 'reports/mutation/ci-incremental.json';
const MINUTES = Number(process.env.MUTATION_CI_MINUTES ?? 12);

interface StrykerConfig {
  mutate: string[];
  vitest: { configFile: string };
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
  if (sources.length > 0) args.push('--mutate', sources.join(','));
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
  console.log(`mutation check: ${seconds} s`);
  process.exit(code ?? 1);
});
