/**
 * Issue 44, item 5: no loop of the product runs without yielding to the event loop. The
 * notifier's delivery loop and its inactivity loop wait on a clock; a clock whose waits end at
 * once (a test's fake, a wait of 0) made them spin on resolved promises, starving every timer
 * of the process, vitest's time limit included, so a test hung instead of failing. Each loop
 * here runs in a child process (`loop-yields-child.ts`); this process, which the loop cannot
 * starve, gives it 10 s and then kills it and fails naming the loop.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./loop-yields-child.ts', import.meta.url));
const LIMIT_MS = 10_000;

/** The child's first line says its loop starts; the limit counts from there (loading it may take seconds). */
const START_LIMIT_MS = 60_000;

/** What the child printed, or a failure naming the loop once `LIMIT_MS` passed after its start without its line. */
function runLoop(loop: 'runDeliveries' | 'run' | 'monitor'): Promise<{ sent: string[]; sleeps: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, loop], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      child.kill('SIGKILL');
      reject(new Error(message));
    };
    let guard = setTimeout(() => fail(`${loop}: the child did not start within ${START_LIMIT_MS} ms`), START_LIMIT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
      if (!before.includes('ready\n') && out.includes('ready\n')) {
        clearTimeout(guard);
        guard = setTimeout(() => fail(`${loop} did not stop within ${LIMIT_MS} ms of a 50 ms stop timer: it never yielded to the event loop`), LIMIT_MS);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(guard);
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as { sent: string[]; sleeps: number });
      else reject(new Error(`${loop}: the child exited ${code}: ${err.slice(-2000)}`));
    });
  });
}

describe.concurrent('promise: a waiting loop yields to the event loop, whatever its clock', () => {
  it('the delivery loop (runDeliveries) on a clock whose waits end at once stops when its signal aborts', { timeout: START_LIMIT_MS + LIMIT_MS }, async () => {
    const { sent, sleeps } = await runLoop('runDeliveries');
    expect(sent).toEqual(['first']);
    expect(sleeps).toBeGreaterThan(1);
  });

  it('the notifier with its inactivity loop (run) on the same clock stops too', { timeout: START_LIMIT_MS + LIMIT_MS }, async () => {
    const { sent, sleeps } = await runLoop('run');
    expect(sent).toEqual(['first']);
    expect(sleeps).toBeGreaterThan(1);
  });

  it('the log monitor\'s poll loop, over a logs API answered in process, on the same clock stops too', { timeout: START_LIMIT_MS + LIMIT_MS }, async () => {
    const { sent, sleeps } = await runLoop('monitor');
    expect(sent).toContain('first');
    expect(sleeps).toBeGreaterThan(1);
  });
});
