/**
 * `npm test`: the type check and the lint side by side, then the unit tests (vitest.config.ts'
 * `unit` project) with coverage. Each
 * step says what it runs when it starts and how long it took; every 15 s one line names the
 * checks still running (vitest shows its own progress). The type check and the lint print
 * their output when they end, so the two never interleave. Both keep caches in node_modules/.cache/flowblocks/ (outside git): tsc's
 * incremental build info and eslint's cache make a second run check only what changed.
 * Exits with the first failing step's code; the tests do not start when a check failed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join('node_modules', '.cache', 'flowblocks');
const STILL_RUNNING_MS = 15_000;
const require = createRequire(import.meta.url);

/** A package's bin script, run with this Node (no shell, no npx lookup). */
function bin(pkg: string, name: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifestPath), typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name]!);
}

export interface Step {
  name: string;
  /** Node scripts run one after the other; the step fails at the first that fails. */
  commands: { label: string; script: string; args: string[] }[];
}

const tsc = (project: string, cacheName: string) => ({
  label: `tsc -p ${project}`,
  script: bin('typescript', 'tsc'),
  args: ['-p', project, '--incremental', '--tsBuildInfoFile', join(CACHE, `${cacheName}.tsbuildinfo`)],
});

export const CHECKS: Step[] = [
  { name: 'typecheck', commands: [tsc('tsconfig.check.json', 'check'), tsc('test/engines/tsconfig.json', 'engines')] },
  { name: 'lint', commands: [{ label: 'eslint .', script: bin('eslint', 'eslint'), args: ['.', '--cache', '--cache-location', join(CACHE, 'eslintcache')] }] },
];
export const TESTS: Step = { name: 'tests', commands: [{ label: 'vitest run --project unit --coverage', script: bin('vitest', 'vitest'), args: ['run', '--project', 'unit', '--coverage'] }] };

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one command; `capture` keeps its output (returned) instead of passing it through. */
function run(command: Step['commands'][number], capture: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [command.script, ...command.args], { cwd: ROOT, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/**
 * The checks side by side (their output held until each ends), then the tests with their
 * output passed through; returns the exit code. `write` receives every line.
 */
export async function runSteps(checks: Step[], tests: Step, write: (text: string) => void, stillRunningMs = STILL_RUNNING_MS): Promise<number> {
  const say = (line: string) => write(`npm test: ${line}\n`);
  // One line for every step still running, so two checks side by side tick together.
  const running = new Map<string, number>();
  const ticker = setInterval(() => {
    if (running.size) say(`  … still running: ${[...running].map(([name, since]) => `${name} (${seconds(Date.now() - since)})`).join(', ')}`);
  }, stillRunningMs);
  const runStep = async (step: Step, capture: boolean): Promise<{ code: number; ms: number }> => {
    const started = Date.now();
    // A step whose output passes through (vitest) shows its own progress.
    if (capture) running.set(step.name, started);
    say(`▶ ${step.name}: ${step.commands.map((c) => c.label).join(', then ')}`);
    let code = 0;
    let output = '';
    for (const command of step.commands) {
      const result = await run(command, capture);
      output += result.output;
      code = result.code;
      if (code !== 0) break;
    }
    running.delete(step.name);
    const ms = Date.now() - started;
    if (output.trim()) write(output.endsWith('\n') ? output : `${output}\n`);
    say(`${code === 0 ? '✓' : '✗'} ${step.name} ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds(ms)}`);
    return { code, ms };
  };

  const started = Date.now();
  say(`${checks.map((s) => s.name).join(' and ')} side by side, then ${tests.name}`);
  try {
    const results = await Promise.all(checks.map((step) => runStep(step, true)));
    const failed = results.find((r) => r.code !== 0);
    if (failed) {
      say(`stopped before the ${tests.name}: ${checks.filter((_, i) => results[i]!.code !== 0).map((s) => s.name).join(' and ')} failed`);
      return failed.code;
    }
    const last = await runStep(tests, false);
    const figures = [...checks.map((s, i) => `${s.name} ${seconds(results[i]!.ms)}`), `${tests.name} ${seconds(last.ms)}`].join(', ');
    say(`${last.code === 0 ? 'passed' : 'failed'} in ${seconds(Date.now() - started)} (${figures})`);
    return last.code;
  } finally {
    clearInterval(ticker);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(join(ROOT, CACHE), { recursive: true });
  process.exit(await runSteps(CHECKS, TESTS, (text) => process.stdout.write(text)));
}
