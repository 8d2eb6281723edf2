/**
 * What the tests that run `flowblocks monitor` as a real process share: waiting for a
 * condition, a child's exit, and the monitor config they write for a local platform.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Waits for `condition`, checking every 20 ms, up to `withinMs`; fails naming `what` when it never holds. */
export async function until(condition: () => boolean | Promise<boolean>, withinMs: number, what: string): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The child's exit code, or the signal that ended it (at once when it has already ended). */
export const exited = (child: ChildProcess) =>
  new Promise<number | string | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode);
    else child.once('exit', (code, signal) => resolve(code ?? signal));
  });

/** Writes a monitor config for a local platform (`r.base`: logs API and `/hook` receiver) into `dir`. */
export function writeConfig(dir: string, r: { base: string; start: number }, extra: Record<string, unknown> = {}): string {
  const config = join(dir, 'monitor.json');
  writeFileSync(
    config,
    JSON.stringify({
      baseUrl: r.base,
      apiKey: '${MONITOR_API_KEY}',
      workspaceId: 'ws-1',
      dataDir: 'state',
      pollIntervalSeconds: 1,
      startFrom: new Date(r.start).toISOString(),
      notifications: { channels: [{ type: 'webhook', url: `${r.base}/hook`, secret: '${HOOK_SECRET}' }], allWorkflows: true },
      ...extra,
    }),
  );
  return config;
}
