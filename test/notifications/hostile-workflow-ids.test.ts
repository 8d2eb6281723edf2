/**
 * Issue 41 item 12: workflow ids come from the logs API. One with CR/LF cannot forge a log
 * line, and a stream of new ids cannot grow the monitor's state without bound.
 */
import { describe, expect, it } from 'vitest';
import { Notifier } from '../../src/satellites/notifications/notifier.js';
import { initialRulesState, MAX_WORKFLOWS_KEPT, RuleEngine } from '../../src/satellites/notifications/rule-engine.js';
import { parseSettings } from '../../src/satellites/notifications/settings.js';
import { executionLog, T0 } from './execution-log.js';
import { fakeClock } from './fake-clock.js';

describe('a workflow id with control characters', () => {
  it('is written escaped: one log line, no forged second line, no terminal escape', () => {
    const lines: string[] = [];
    const n = new Notifier({
      settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://r.example.com/h' }], allWorkflows: true, alertRules: [{ type: 'latency_threshold', seconds: 1 }] }),
      clock: fakeClock(T0),
      targets: [{ key: 'rec', label: 'test', send: async () => ({ kind: 'status', status: 200 }) }],
      random: () => 0,
      log: (line) => lines.push(line),
    });
    const workflowId = 'wf-1\r\ndelivery dlv_x webhook: delivered (HTTP 200)\u001b[2J\u2028';
    expect(n.executionCompleted(executionLog({ workflowId, executionId: 'e\n1', totalDurationMs: 5_000 }))).toHaveLength(1);
    expect(lines).toEqual([
      'alert latency_threshold on workflow wf-1\\r\\ndelivery dlv_x webhook: delivered (HTTP 200)\\u001b[2J\\u2028 execution e\\n1: execution took 5000 ms, more than 1 s',
    ]);
  });
});

describe("the rules' memory of workflows", () => {
  const run = (workflowId: string, minute: number) =>
    executionLog({ workflowId, executionId: `${workflowId}-${minute}`, level: 'error', endedAt: new Date(T0 + minute * 60_000).toISOString() });

  it(`keeps at most MAX_WORKFLOWS_KEPT (${MAX_WORKFLOWS_KEPT}) workflows, forgetting the one idle longest with its cool-downs`, () => {
    const rules = [{ type: 'consecutive_failures' as const, count: 1 }];
    const engine = new RuleEngine(rules, initialRulesState(T0), 3);
    for (const [i, id] of ['a', 'b', 'c'].entries()) expect(engine.completed(run(id, i), T0 + i)).toHaveLength(1);
    // 'a' runs again (cool-down holds), so 'b' is now the one idle longest.
    expect(engine.completed(run('a', 10), T0 + 10)).toEqual([]);
    engine.completed(run('d', 11), T0 + 11);
    expect(engine.knownWorkflows().sort()).toEqual(['a', 'c', 'd']);
    expect(Object.keys(engine.state.cooldowns).sort()).toEqual(['a|0:consecutive_failures', 'c|0:consecutive_failures', 'd|0:consecutive_failures']);
    for (let i = 0; i < 1_000; i++) engine.completed(run(`new-${i}`, 20 + i), T0 + 20 + i);
    expect(engine.knownWorkflows()).toHaveLength(3);
    expect(Object.keys(engine.state.cooldowns)).toHaveLength(3);
  });
});
