import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

const answers = async (port: number) => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return (await res.json()) as { flowblocks?: string; pid?: number };
  } catch {
    return undefined;
  }
};

async function waitFor<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

describe('npm start as a process', () => {
  it('SIGTERM to npm stops the sandbox; a second sandbox on its port names the first and how to stop it', { timeout: 90_000 }, async () => {
    const port = await freePort();
    // The README's command, without the tour: npm → node (exec), one process under npm.
    const npm = spawn('npm', ['run', '--silent', 'flowblocks', '--', 'sandbox', '--port', String(port), '--no-service-ports'], {
      cwd: root,
      stdio: 'ignore',
    });
    try {
      const index = await waitFor(() => answers(port), 60_000);
      expect(index).toMatchObject({ flowblocks: 'sandbox', pid: expect.any(Number) });

      const second = spawnSync(process.execPath, ['--import', 'tsx', 'src/satellites/cli/index.ts', 'sandbox', '--once', '--port', String(port), '--no-service-ports'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(second.status).toBe(1);
      expect(second.stderr).toContain(`port ${port} is taken by an earlier flowblocks sandbox (pid ${index!.pid}`);
      expect(second.stderr).toContain(`kill ${index!.pid}`);

      npm.kill('SIGTERM');
      const gone = await waitFor(async () => ((await answers(port)) ? undefined : true), 15_000);
      expect(gone).toBe(true);
      // The sandbox's own process is gone too, not re-parented.
      const alive = () => {
        try {
          process.kill(index!.pid!, 0);
          return !/^Z/m.test(spawnSync('ps', ['-o', 'stat=', '-p', String(index!.pid)], { encoding: 'utf8' }).stdout);
        } catch {
          return false;
        }
      };
      expect(await waitFor(async () => (alive() ? undefined : true), 10_000)).toBe(true);
    } finally {
      npm.kill('SIGKILL');
    }
  });
});
