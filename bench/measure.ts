import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs `fn` `total` times with `concurrency` workers; returns elapsed ms. */
export async function timeCalls(total: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await fn(next++);
    }),
  );
  return performance.now() - started;
}

/** Warm-up, then the median of `runs` timed runs, in ms. */
export async function medianMs(runs: number, warmup: () => Promise<unknown>, run: () => Promise<number>): Promise<number> {
  await warmup();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await run());
  return median(times);
}

/** Starts a bench script in a child process (through tsx) and waits for its first IPC message. */
export async function startChild<M>(script: string, args: string[] = []): Promise<{ child: ChildProcess; message: M }> {
  // Plain JavaScript children run on bare Node, so their memory is only their own.
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, {
    execArgv: script.endsWith('.mjs') ? [] : ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await once(child, 'message')) as [M];
  return { child, message };
}

/** Runs a bench script to its end and returns the one result it sends. */
export async function runChild<M>(script: string, args: string[] = []): Promise<M> {
  const { child, message } = await startChild<M>(script, args);
  await stopChild(child);
  return message;
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  if (child.connected) child.disconnect();
  await exited;
}
