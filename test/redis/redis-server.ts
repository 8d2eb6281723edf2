import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real `redis-server` on a free loopback port, owned by one test file. */
export interface RedisServer {
  url: string;
  port: number;
  /** SIGKILLs the server (as a crash would); `start()` brings it back on the same port and data dir. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOPs the server: connections stay open and nothing is answered (not refused) until `resume()`. */
  pause(): void;
  /** SIGCONTs a paused server. */
  resume(): void;
  stop(): Promise<void>;
}

const INSTALL = 'apt-get update && apt-get install -y redis-server';

/** Fails loudly, never skips: these tests exist to run against the real server. */
function assertInstalled(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(`redis-server is not installed; the Redis tests need the real server. Install it with: ${INSTALL}`);
  }
}

/** A free loopback port: nothing listens on it when this returns (also a Redis that is not there). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  assertInstalled();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-redis-'));
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(
      'redis-server',
      // No config file: loopback only, no persistence by snapshot; appendonly so a restart keeps data.
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--protected-mode', 'yes'],
      { stdio: 'ignore' },
    );
    const started = Date.now();
    while (!(await accepts(port))) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode} on port ${port}`);
      if (Date.now() - started > 10_000) throw new Error(`redis-server did not listen on port ${port} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => end('SIGKILL'),
    start,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    stop: async () => {
      child?.kill('SIGCONT'); // a paused server would not act on SIGTERM
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
