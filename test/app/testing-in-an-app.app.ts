import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const DOC = join(ROOT, 'docs', 'testing-your-workflows.md');
/** Versions of the runners the app installs from npm. */
const JEST = '30.5.2';
const VITEST = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.vitest!;

/** The doc's code blocks that name their file on their first line (`// file: welcome.mjs`). */
function docFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const block of readFileSync(DOC, 'utf8').matchAll(/```js\n\/\/ file: (\S+)\n([\s\S]*?)```/g)) files.set(block[1]!, block[2]!);
  return files;
}

/** Runs a command in the app with no network at all (a network namespace of its own: loopback only). */
async function offline(app: string, command: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run('unshare', ['--map-root-user', '--net', '--', ...command], { cwd: app, env: { ...process.env, ...env, CI: '1', NO_COLOR: '1' }, maxBuffer: 16 << 20 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

let work: string;
let app: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'flowblocks-app-'));
  // npm pack once (prepack builds dist/ first), or the tarball .ci/run packed for every app test.
  let tarball = process.env.FLOWBLOCKS_TARBALL ? resolve(process.env.FLOWBLOCKS_TARBALL) : undefined;
  if (!tarball) {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, maxBuffer: 64 << 20 });
    tarball = join(work, (JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[])[0]!.filename);
  }
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'welcome-app', private: true, type: 'module' }, null, 2));
  // The package from its tarball, the runners from the registry: nothing from this repository's node_modules.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `jest@${JEST}`, `vitest@${VITEST}`], { cwd: app, maxBuffer: 64 << 20 });
  for (const [name, text] of docFiles()) writeFileSync(join(app, name), text);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('docs/testing-your-workflows.md, from an app that installed the packed package', () => {
  it('holds the workflow and its test in each runner', () => {
    expect([...docFiles().keys()].sort()).toEqual(['welcome.jest.test.mjs', 'welcome.mjs', 'welcome.node.test.mjs', 'welcome.vitest.test.mjs']);
    expect(readdirSync(join(app, 'node_modules', 'flowblocks', 'dist', 'src', 'testing'))).toContain('index.js');
  });

  it('vitest', async () => {
    const result = await offline(app, ['npx', 'vitest', 'run', 'welcome.vitest.test.mjs']);
    expect(result.output).toMatch(/Tests\s+3 passed \(3\)/);
    expect(result.code).toBe(0);
  });

  it('jest', async () => {
    const result = await offline(app, ['npx', 'jest', '--ci', 'welcome.jest.test.mjs'], { NODE_OPTIONS: '--experimental-vm-modules' });
    expect(result.output).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(result.code).toBe(0);
  });

  it('node:test', async () => {
    const result = await offline(app, ['node', '--test', 'welcome.node.test.mjs']);
    expect(result.output).toMatch(/# pass 2\n# fail 0/);
    expect(result.code).toBe(0);
  });
});
