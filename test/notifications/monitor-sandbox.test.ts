/**
 * `flowblocks monitor --once` with every channel against the sandbox: the workflow platform's
 * logs API, Loops for the e-mail channel (its 500-character rule on every value included), and
 * receivers on 127.0.0.1 for the webhook and the chat channels.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/satellites/cli/main.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { call, webhookReceiver } from '../sandbox/helpers.js';

let sb: Sandbox;
let dir: string;
const receivers: Awaited<ReturnType<typeof webhookReceiver>>[] = [];
const started = new Date(Date.now() - 60_000).toISOString();

beforeAll(async () => {
  sb = await startSandbox({ servicePorts: false });
  dir = mkdtempSync(join(tmpdir(), 'flowblocks-monitor-sandbox-'));
  // One failed execution to notify: its final output and trace spans make a payload far over 500 characters.
  const res = await call(`${sb.urls.workflow}/api/workflows/wf_broken_query/execute`, {
    method: 'POST',
    body: '{}',
    headers: { 'x-api-key': sb.credentials.workflow.apiKey, 'content-type': 'application/json' },
  });
  expect(res.json).toMatchObject({ success: false });
}, 60_000);

afterAll(async () => {
  for (const r of receivers) await r.close();
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

async function monitorOnce(name: string, email: Record<string, unknown>) {
  const hook = await webhookReceiver();
  const chat = await webhookReceiver();
  receivers.push(hook, chat);
  const config = join(dir, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      baseUrl: sb.urls.workflow,
      apiKey: sb.credentials.workflow.apiKey,
      workspaceId: sb.credentials.workflow.workspaceId,
      dataDir: `state-${name}`,
      startFrom: started,
      notifications: {
        channels: [
          { type: 'webhook', url: hook.url, secret: 'whsec-monitor-sandbox' },
          { type: 'email', recipients: ['oncall@example.com'], apiKey: sb.credentials.loops.apiKey, endpoint: sb.urls.loops, ...email },
          { type: 'chat', url: chat.url },
        ],
        allWorkflows: true,
        levelFilter: ['error'],
        includeFinalOutput: true,
        includeTraceSpans: true,
        alertRules: [{ type: 'consecutive_failures', count: 1 }],
      },
    }),
  );
  let stdout = '';
  let stderr = '';
  const code = await main(['monitor', '--config', config, '--once'], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: async () => '' });
  return { code, stdout, stderr, hook, chat };
}

it('delivers to every channel: the e-mail lands in the outbox, each of its values within Loops\' 500 characters', async () => {
  const { code, stdout, stderr, hook, chat } = await monitorOnce('all', { transactionalId: 'tx_execution_alert' });
  expect(stderr).toBe('');
  expect(stdout).not.toContain('giving up');
  expect(code).toBe(0);

  expect(hook.received).toHaveLength(1);
  const event = verifyWebhook({ body: hook.received[0]!.body, headers: hook.received[0]!.headers, secret: 'whsec-monitor-sandbox' });
  expect(event.data).toMatchObject({ workflowId: 'wf_broken_query', status: 'error' });
  // The payload the e-mail carries in part.
  expect(hook.received[0]!.body.length).toBeGreaterThan(500);
  expect(chat.received).toHaveLength(1);
  expect((JSON.parse(chat.received[0]!.body) as { text: string }).text).toContain('wf_broken_query');

  const { emails } = (await call(sb.admin.loopsOutbox)).json as unknown as {
    emails: { to: string; transactionalId: string; subject: string; body: string; dataVariables: Record<string, string | number> }[];
  };
  const sent = emails.filter((e) => e.transactionalId === 'tx_execution_alert');
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ to: 'oncall@example.com', subject: expect.stringMatching(/^Alert: 1 consecutive failed execution.*Workflow wf_broken_query execution \S+ failed/) });
  expect(sent[0]!.body).toContain(`execution ${event.data.executionId}: error`);
  const variables = sent[0]!.dataVariables;
  expect(variables).toMatchObject({ workflowId: 'wf_broken_query', executionId: event.data.executionId, status: 'error' });
  for (const value of Object.values(variables)) expect(JSON.stringify(value).length).toBeLessThanOrEqual(500);
  // The payload cut to fit, and said to be cut.
  expect(String(variables.payload)).toMatch(/^\{"id":"evt_.*…$/);
  expect(stdout).toMatch(/email …@example\.com execution \S+ attempt 1\/6: delivered/);
}, 60_000);

it('exits 1 when a delivery is given up, and says so', async () => {
  const { code, stdout } = await monitorOnce('unknown-template', { transactionalId: 'tx_nope' });
  expect(stdout).toMatch(/email …@example\.com execution \S+ attempt 1\/6: HTTP 404, giving up \(not retryable\)/);
  expect(stdout).toMatch(/done: 0 delivery\(ies\) pending, 1 given up \(see the lines above\)/);
  expect(code).toBe(1);
}, 60_000);
