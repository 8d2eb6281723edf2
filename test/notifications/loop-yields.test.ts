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

/** What the child printed, or a failure naming the loop once `LIMIT_MS` passed without its line. */
function runLoop(loop: 'runDeliveries' | 'run' | 'monitor'): Promise<{ sent: string[]; sleeps: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, loop], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${loop} did not stop within ${LIMIT_MS} ms of a 50 ms stop timer: it never yielded to the event loop`));
    }, LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(guard);
      if (code === 0 && out.trim()) resolve(JSON.parse(out) as { sent: string[]; sleeps: number });
      else reject(new Error(`${loop}: the child exited ${code}: ${err.slice(-2000)}`));
    });
  });
}

describe.concurrent('promise: a waiting loop yields to the event loop, whatever its clock', () => {
  it('the delivery loop (runDeliveries) on a clock whose waits end at once stops when its signal aborts', { timeout: LIMIT_MS + 5_000 }, async () => {
    const { sent, sleeps } = await runLoop('runDeliveries');
    expect(sent).toEqual(['first']);
    expect(sleeps).toBeGreaterThan(1);
  });

  it('the notifier with its inactivity loop (run) on the same clock stops too', { timeout: LIMIT_MS + 5_000 }, async () => {
    const { sent, sleeps } = await runLoop('run');
    expect(sent).toEqual(['first']);
    expect(sleeps).toBeGreaterThan(1);
  });

  it('the log monitor\'s poll loop, over a logs API answered in process, on the same clock stops too', { timeout: LIMIT_MS + 5_000 }, async () => {
    const { sent, sleeps } = await runLoop('monitor');
    expect(sent).toContain('first');
    expect(sleeps).toBeGreaterThan(1);
  });
});
