/**
 * Runs one of the product's waiting loops in a child process with a clock whose every sleep
 * resolves at once (a microtask), stopped by a real timer 50 ms later, and posts what happened.
 * A loop that never yields to the event loop starves that timer, and this process never prints:
 * `loop-yields.test.ts` then kills it and fails by name, from a process the loop cannot starve.
 * `node --import tsx test/notifications/loop-yields-child.ts runDeliveries|run`
 */
import type { Clock } from '../../src/satellites/notifications/clock.js';
import { LogMonitor } from '../../src/satellites/notifications/monitor.js';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import type { Target } from '../../src/satellites/notifications/queue.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import { executionLog, T0 } from './execution-log.js';
import { fakeLog, fakeLogsApi, ORIGIN } from './logs-api.js';

let now = T0;
let sleeps = 0;
/** Time moves by each wait, and every wait is over at once: nothing here takes a turn of the event loop. */
const instantClock: Clock = {
  now: () => now,
  sleep: (ms, signal) => {
    sleeps++;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    now += Math.max(0, ms);
    return Promise.resolve();
  },
};

const sent: string[] = [];
const target: Target = { key: 't', label: 't', send: async (d) => (sent.push(d.executionId), { kind: 'status', status: 200 }) };
const notifier = new Notifier({
  settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true }),
  clock: instantClock,
  targets: [target],
  random: () => 0,
});
notifier.executionCompleted(executionLog({ executionId: 'first' }));

const stop = new AbortController();
// The parent's 10 s start from here: loading this file takes seconds on a loaded machine.
process.stdout.write('ready\n');
setTimeout(() => stop.abort(), 50);
/** The monitor's poll loop over a logs API answered in process (undici's MockAgent). */
function monitorLoop(): Promise<void> {
  const api = fakeLogsApi();
  api.logs.push(fakeLog(0, T0));
  const monitor = new LogMonitor({ notifier, baseUrl: ORIGIN, apiKey: 'k-loop-yields', workspaceId: 'ws-1', dispatcher: api.agent, startFrom: T0 - 60_000, log: () => {} });
  return monitor.run({ signal: stop.signal });
}
const mode = process.argv[2];
const loop = mode === 'run' ? notifier.run(stop.signal, { inactivityCheckMs: 1 }) : mode === 'monitor' ? monitorLoop() : notifier.runDeliveries(stop.signal);
await loop;
process.stdout.write(`${JSON.stringify({ sent, sleeps })}\n`);
