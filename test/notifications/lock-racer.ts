/**
 * A process that races for a data directory's lock, for test/reliability/hostile-monitor.
 * Commands on stdin, one per line: `go <dir> <epoch ms>` waits until that instant (so all
 * racers start together), tries the lock and prints `held` or `refused <reason>`;
 * `release` lets it go and prints `released`.
 */
import { createInterface } from 'node:readline';
import { lockDataDir } from '../../src/satellites/notifications/lock.js';

let release: (() => void) | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, dir, at] = line.split(' ');
  if (command === 'go' && dir) {
    while (Date.now() < Number(at)); // spin: a timer would spread the racers out
    try {
      release = lockDataDir(dir);
      process.stdout.write('held\n');
    } catch (error) {
      process.stdout.write(`refused ${(error as Error).message}\n`);
    }
  } else if (command === 'release') {
    release?.();
    release = undefined;
    process.stdout.write('released\n');
  }
}
