/**
 * Type test (checked by `tsc -p tsconfig.check.json`, which `npm test` runs): where one part's
 * output is documented as another's input, it goes in as it comes out, with no cast.
 * docs/notifications.md hands a `workflow_list_logs` entry (or a `workflow_get_log` output's `data`)
 * to `Notifier.executionCompleted`.
 */
import { expect, expectTypeOf, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { Notifier, parseSettings, type ExecutionLog, type Limits } from '../../src/satellites/notifications/index.js';
import { mockService } from '../helpers/mock-service.js';

const ORIGIN = 'http://workflows.test';
const auth = { base_url: ORIGIN, apiKey: 'sk-compose' };
const entry = (n: number, endedAt: string | null) => ({
  id: `log_${n}`,
  workflowId: 'wf_1',
  executionId: `exec_${n}`,
  level: 'error',
  trigger: 'api',
  startedAt: '2026-01-05T12:00:00.000Z',
  endedAt,
  totalDurationMs: endedAt ? 1500 : null,
  cost: { total: 0.02 },
});

it("a workflow_list_logs entry and its limits, and a workflow_get_log output's data, go to Notifier.executionCompleted as they are", async () => {
  const svc = mockService(ORIGIN);
  svc.on('GET', '/api/v1/logs', { status: 200, body: { data: [entry(1, '2026-01-05T12:00:01.500Z'), entry(2, null)], nextCursor: null } });
  svc.on('GET', '/api/v1/logs/log_3', { status: 200, body: { data: entry(3, '2026-01-05T12:00:02.000Z') } });
  const notifier = new Notifier({ settings: parseSettings({ channels: [{ type: 'webhook', url: 'https://hooks.test/x' }], allWorkflows: true }) });

  const listed = await executeTool('workflow_list_logs', { ...auth, workspaceId: 'ws_1' }, { dispatcher: svc.agent, retry: false });
  const one = await executeTool('workflow_get_log', { ...auth, id: 'log_3' }, { dispatcher: svc.agent, retry: false });
  if (!listed.success || !one.success) throw new Error(`${JSON.stringify(listed)} ${JSON.stringify(one)}`);

  // The compile-time half: each output is assignable to the input it is documented to feed.
  expectTypeOf(listed.output.data[0]!).toExtend<ExecutionLog>();
  expectTypeOf(listed.output.limits).toExtend<Limits | undefined>();
  expectTypeOf(one.output.data).toExtend<ExecutionLog>();

  // The run-time half: the ended execution is notified, the running one (endedAt null) is not.
  const queued = listed.output.data.flatMap((log) => notifier.executionCompleted(log, listed.output.limits));
  queued.push(...notifier.executionCompleted(one.output.data, one.output.data.limits));
  expect(queued.map((d) => (JSON.parse(d.body) as { data: { executionId: string; totalDurationMs: number } }).data)).toEqual([
    expect.objectContaining({ executionId: 'exec_1', totalDurationMs: 1500 }),
    expect.objectContaining({ executionId: 'exec_3', totalDurationMs: 1500 }),
  ]);
});
