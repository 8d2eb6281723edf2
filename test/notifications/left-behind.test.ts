/**
 * Issue 44, item 3: what the notifier leaves once stopped. Its loops listen on the caller's
 * signal and wait on the real clock; stopped, they keep no listener on it and no timer that
 * holds the process (Node's own count: `process.getActiveResourcesInfo()`), however many
 * times they woke.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/satellites/notifications/clock.js';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import type { Target } from '../../src/satellites/notifications/queue.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import { executionLog } from './execution-log.js';

const aliveTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('a stopped notifier', () => {
  it('run(): after many wakes and deliveries, no listener on its signal and no timer holding the process', { timeout: 10_000 }, async () => {
    const baseline = aliveTimers();
    const sent: string[] = [];
    const target: Target = { key: 't', label: 't', send: async (d) => (sent.push(d.executionId), { kind: 'status', status: 200 }) };
    const notifier = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true }),
      clock: systemClock,
      targets: [target],
      random: () => 0,
    });
    const stop = new AbortController();
    const running = notifier.run(stop.signal, { inactivityCheckMs: 5 });
    for (let i = 0; i < 20; i++) {
      notifier.executionCompleted(executionLog({ executionId: `e-${i}` }));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    while (sent.length < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    // While it runs it listens: once per loop, not once per wake.
    expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(2);
    stop.abort();
    await running;
    expect(sent).toHaveLength(20);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    expect(aliveTimers()).toBeLessThanOrEqual(baseline);
  });
});
