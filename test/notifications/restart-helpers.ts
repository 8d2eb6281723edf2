/** Processes that die and restart over one state file, for the journal and crash-loop tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import type { Target } from '../../src/satellites/notifications/queue.js';
import type { DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import type { NotificationState } from '../../src/satellites/notifications/state.js';
import { jsonFileStore } from '../../src/satellites/notifications/store.js';
import { executionLog } from './execution-log.js';
import type { fakeClock } from './fake-clock.js';

export { T0 } from './execution-log.js';


const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A state file path in a fresh directory, removed after the test. */
export function statePath() {
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-journal-'));
  dirs.push(dir);
  return join(dir, 'state.json');
}

export const log = (n: number) => executionLog({ n });

/** A receiver that counts every request per delivery id and answers as `answer` says (never, if it returns undefined). */
export function receiver(answer: (id: string) => DeliveryOutcome | undefined) {
  const requests = new Map<string, number>();
  const target: Target = {
    key: 'hook',
    label: 'webhook https://r.example.com',
    send(delivery) {
      requests.set(delivery.id, (requests.get(delivery.id) ?? 0) + 1);
      const outcome = answer(delivery.id);
      return outcome ? Promise.resolve(outcome) : new Promise<DeliveryOutcome>(() => {});
    },
  };
  return { requests, target };
}

/** A monitor process over the state file at `path`; dropping it with attempts in flight is a SIGKILL as far as the files go. */
export function start(path: string, target: Target, clock: ReturnType<typeof fakeClock>, lines: string[] = []) {
  return new Notifier({
    settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true }),
    store: jsonFileStore<NotificationState>(path),
    clock,
    targets: [target],
    random: () => 0,
    log: (line) => lines.push(line),
  });
}
