import { describe, expect, it } from 'vitest';
import { LogMonitor } from '../../src/satellites/notifications/monitor.js';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import { memoryStore } from '../../src/satellites/notifications/store.js';
import { mockService } from '../helpers/mock-service.js';
import { executionLog, T0 } from './execution-log.js';
import { fakeClock } from './fake-clock.js';
import { fakeLog, fakeLogsApi, ORIGIN } from './logs-api.js';

// Issue 41 items 11 and 12: workflow output and ids are text from outside, in a chat message,
// a log line and the monitor's state.

const HOOK = '/services/T1/B2/hook-token';

describe('chat notifications', () => {
  it('escape workflow output for Slack mrkdwn: no mention, no link, no way out of the code block', async () => {
    const slack = mockService('https://hooks.slack.com');
    slack.on('POST', HOOK, { status: 200, body: 'ok' });
    const notifier = new Notifier({
      settings: parseSettings({ channels: [{ type: 'chat', url: `https://hooks.slack.com${HOOK}` }], allWorkflows: true, includeFinalOutput: true }),
      dispatcher: slack.agent,
      clock: fakeClock(T0 + 2_000, { autoAdvance: true }),
      random: () => 0,
    });
    const hostile = 'done\n```\n<!channel> <https://evil.example/login|Reset your password> & <@U0123>\n```';
    notifier.executionCompleted(executionLog({ workflowId: 'wf-<!here>', finalOutput: { message: hostile } }));
    expect(await notifier.deliverDue()).toBe(1);
    const { text } = JSON.parse(String(slack.requests[0]?.body)) as { text: string };
    for (const raw of ['<!channel>', '<!here>', '<https://evil.example', '<@U0123>']) expect(text).not.toContain(raw);
    expect(text).toMatch(/^Workflow wf-&lt;!here&gt; execution exec-\d+ succeeded/);
    expect(text).toContain('&lt;!channel&gt; &lt;https://evil.example/login|Reset your password&gt; &amp; &lt;@U0123&gt;');
    // One fence opens the payload and one closes it, at the very end: the output's own backticks are broken up.
    expect(text.split('```')).toHaveLength(3);
    expect(text.endsWith('\n```')).toBe(true);
    expect(text).toContain('`\u200b`\u200b`\u200b');
  });
});

describe('the log monitor', () => {
  const ruleSettings = {
    channels: [{ type: 'webhook' as const, url: 'https://receiver.example.com/hook' }],
    allWorkflows: true,
    alertRules: [{ type: 'consecutive_failures' as const, count: 3 }],
  };
  const monitorOf = (api: ReturnType<typeof fakeLogsApi>, lines: string[], maxWorkflowsTracked?: number) => {
    const clock = fakeClock(T0 + 3_600_000, { autoAdvance: true });
    const log = (line: string) => lines.push(line);
    const notifier = new Notifier({ settings: parseSettings(ruleSettings), store: memoryStore(), clock, targets: [], random: () => 0, log, maxWorkflowsTracked });
    return { notifier, monitor: new LogMonitor({ notifier, baseUrl: ORIGIN, apiKey: 'sk-monitor', workspaceId: 'ws-1', dispatcher: api.agent, startFrom: T0, log }) };
  };

  it('writes CR and LF from a workflow id escaped: one line per event, no forged line', async () => {
    const api = fakeLogsApi();
    const forged = 'wf-1\r\nexecution exec_forged workflow wf-2 info api 1 ms: 0 deliveries queued';
    api.logs.push(fakeLog(1, T0 + 1_000, { workflowId: forged, level: 'error' }));
    const lines: string[] = [];
    const { monitor } = monitorOf(api, lines);
    expect((await monitor.pollOnce()).evaluated).toBe(1);
    for (const line of lines) expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(lines.filter((line) => line.startsWith('execution '))).toEqual([
      'execution exec_1 workflow wf-1\\u000d\\u000aexecution exec_forged workflow wf-2 info api 1 ms: 0 deliveries queued error api 1000 ms: 0 deliveries queued',
    ]);
  });

  it('keeps rule state for a bounded number of workflows, forgetting the one that ran least recently', async () => {
    const api = fakeLogsApi();
    for (let i = 1; i <= 5; i++) api.logs.push(fakeLog(i, T0 + i * 1_000, { workflowId: `wf-${i}`, level: 'error' }));
    const { notifier, monitor } = monitorOf(api, [], 3);
    expect((await monitor.pollOnce()).evaluated).toBe(5);
    expect(Object.keys(notifier.state.rules.workflows).sort()).toEqual(['wf-3', 'wf-4', 'wf-5']);
    // A run of a remembered workflow keeps it; the next new one pushes out the least recent.
    api.logs.push(fakeLog(6, T0 + 6_000, { workflowId: 'wf-3', level: 'error' }), fakeLog(7, T0 + 7_000, { workflowId: 'wf-6', level: 'error' }));
    await monitor.pollOnce();
    expect(Object.keys(notifier.state.rules.workflows).sort()).toEqual(['wf-3', 'wf-5', 'wf-6']);
    expect(notifier.state.rules.workflows['wf-3']!.consecutiveFailures).toBe(2);
  });
});
