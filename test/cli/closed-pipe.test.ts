/** The CLI as a process whose reader closed its end of stdout, as `flowblocks list | head -1` does. */
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

it('ends quietly with exit 0 when the reader of its stdout has gone (EPIPE), no stack trace', { timeout: 60_000 }, async () => {
  for (const args of [['list'], ['schema', 'tinybird_query']]) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/satellites/cli/index.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    // Closed before the first write, so every write fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
  }
});
