/**
 * A server command outlives nothing that started it: started through a wrapper that passes no
 * signal on (as npx with SIGTERM), and the wrapper killed, the sandbox and the preview stop
 * within a second or so and free their ports.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Running, and not a zombie waiting for a reaper. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(1000) }).then(
    () => true,
    () => false,
  );

/** Children a failing run would leave behind: ended here, by pid. */
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

async function startThroughWrapper(args: string[], ready: RegExp) {
  const wrapper = spawn(process.execPath, [join(ROOT, 'test/helpers/no-forward-wrapper.mjs'), process.execPath, '--import', 'tsx', join(ROOT, 'src/satellites/cli/index.ts'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  wrapper.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  wrapper.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  expect(await until(() => ready.test(out), 60_000)).toBe(true);
  const child = Number(/^child (\d+)$/m.exec(out)![1]);
  started.push(child);
  return { wrapper, child, out: () => out };
}

describe('killing a wrapper that does not forward signals', () => {
  it('stops flowblocks sandbox and frees its port', { timeout: 90_000 }, async () => {
    const { wrapper, child, out } = await startThroughWrapper(['sandbox', '--port', '0', '--no-service-ports', '--no-seed'], /Stop with Ctrl-C/);
    const origin = /Tinybird\s+(http:\/\/127\.0\.0\.1:\d+)\/tinybird/.exec(out())![1]!;
    expect(await answers(`${origin}/`)).toBe(true);
    wrapper.kill('SIGTERM');
    expect(await until(() => !alive(child), 10_000)).toBe(true);
    expect(await answers(`${origin}/`)).toBe(false);
  });

  it('stops flowblocks preview and its sandbox', { timeout: 90_000 }, async () => {
    const { wrapper, child, out } = await startThroughWrapper(['preview', '--port', '0'], /Stop with Ctrl-C/);
    const page = /flowblocks preview: (http:\/\/\S+)/.exec(out())![1]!;
    expect(await answers(page)).toBe(true);
    wrapper.kill('SIGKILL');
    expect(await until(() => !alive(child), 10_000)).toBe(true);
    expect(await answers(page)).toBe(false);
  });
});
