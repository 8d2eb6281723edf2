import { describe, expect, it } from 'vitest';
import { chatTarget } from '../../src/satellites/notifications/channels/chat.js';
import { emailTarget } from '../../src/satellites/notifications/channels/email.js';
import { buildCompletedEvent } from '../../src/satellites/notifications/payload.js';
import type { Delivery } from '../../src/satellites/notifications/queue.js';
import { mockService } from '../helpers/mock-service.js';

const event = buildCompletedEvent(
  {
    id: 'log-1',
    workflowId: 'wf-1',
    executionId: 'exec-1',
    level: 'error',
    trigger: 'api',
    startedAt: '2026-01-05T12:00:00.000Z',
    endedAt: '2026-01-05T12:00:01.000Z',
    totalDurationMs: 1000,
    cost: { total: 0.5 },
  },
  { includeFinalOutput: false, includeTraceSpans: false, includeRateLimits: false, includeUsageData: false },
  1_767_614_401_000,
);

function delivery(attempts = 1): Delivery {
  return {
    id: 'dlv_0123456789abcdef0123456789abcdef',
    target: 't',
    eventId: event.id,
    workflowId: 'wf-1',
    executionId: 'exec-1',
    body: JSON.stringify(event),
    reasons: ['3 consecutive failed executions (threshold 3)'],
    createdAt: 0,
    attempts,
    nextAttemptAt: 0,
    state: 'pending',
  };
}

describe('chat channel', () => {
  it('posts Slack-style { text } with the summary, the alert reason and the payload', async () => {
    const slack = mockService('https://hooks.slack.com');
    slack.on('POST', '/services/T1/B2/secret-token', { status: 200, body: 'ok' });
    const target = chatTarget('k', 'https://hooks.slack.com/services/T1/B2/secret-token', slack.agent);
    expect(target.label).toBe('chat https://hooks.slack.com');
    expect(await target.send(delivery(), 1000)).toEqual({ kind: 'status', status: 200 });
    const sent = JSON.parse(String(slack.requests[0]?.body)) as { text: string };
    expect(sent.text).toMatch(/^Alert: 3 consecutive failed executions \(threshold 3\)\. Workflow wf-1 execution exec-1 failed \(api, 1000 ms, cost 0.5\)/);
    expect(sent.text).toContain('"links": {');
    expect(slack.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('escapes what a workflow controls: no mention, no link, no early end of the code block', async () => {
    const hostile = buildCompletedEvent(
      {
        id: 'log-2',
        workflowId: 'wf <!channel> & <https://evil.example|Reset your password>',
        executionId: 'exec-2',
        level: 'info',
        trigger: 'api',
        startedAt: '2026-01-05T12:00:00.000Z',
        endedAt: '2026-01-05T12:00:01.000Z',
        totalDurationMs: 1000,
        cost: { total: 0.5 },
        finalOutput: { note: '```\n<!here> *urgent* ````', link: '<https://evil.example|click>' },
      },
      { includeFinalOutput: true, includeTraceSpans: false, includeRateLimits: false, includeUsageData: false },
      1_767_614_401_000,
    );
    const slack = mockService('https://hooks.slack.com');
    slack.on('POST', '/services/T1/B2/secret-token', { status: 200, body: 'ok' });
    const target = chatTarget('k', 'https://hooks.slack.com/services/T1/B2/secret-token', slack.agent);
    expect(await target.send({ ...delivery(), body: JSON.stringify(hostile), reasons: [] }, 1000)).toEqual({ kind: 'status', status: 200 });
    const { text } = JSON.parse(String(slack.requests[0]?.body)) as { text: string };
    expect(text).toMatch(/^Workflow wf &lt;!channel&gt; &amp; &lt;https:\/\/evil\.example\|Reset your password&gt; execution exec-2 succeeded/);
    // Nothing Slack reads as a control sequence, and exactly one code block: the one we opened.
    expect(text).not.toMatch(/[<>]/);
    expect(text.match(/```/g)).toHaveLength(2);
    expect(text.startsWith('Workflow') && text.endsWith('```')).toBe(true);
    expect(text).toContain('&lt;!here&gt;');
  });

  it('reports a refused connection as a retryable network fault without the URL', async () => {
    const slack = mockService('https://hooks.slack.com');
    slack.failConnection('POST', '/services/T1/B2/secret-token');
    const outcome = await chatTarget('k', 'https://hooks.slack.com/services/T1/B2/secret-token', slack.agent).send(delivery(), 1000);
    expect(outcome).toEqual({ kind: 'network', message: 'connection failed (ECONNRESET)' });
  });
});

describe('e-mail channel', () => {
  const config = { recipient: 'ops@example.com', transactionalId: 'tx_alert', apiKey: 'loops-secret-key' };

  it('sends the Loops transactional e-mail once, with the delivery id as Idempotency-Key', async () => {
    const loops = mockService('https://app.loops.so');
    loops.on('POST', '/api/v1/transactional', { status: 200, body: { success: true } });
    const target = emailTarget('k', config, loops.agent);
    expect(target.label).toBe('email …@example.com');
    expect(await target.send(delivery(), 1000)).toEqual({ kind: 'status', status: 200 });
    const request = loops.requests[0];
    expect(request?.headers['idempotency-key']).toBe(delivery().id);
    expect(request?.headers.authorization).toBe('Bearer loops-secret-key');
    const body = JSON.parse(String(request?.body)) as { email: string; transactionalId: string; dataVariables: Record<string, unknown> };
    expect(body.email).toBe('ops@example.com');
    expect(body.transactionalId).toBe('tx_alert');
    expect(body.dataVariables).toMatchObject({
      workflowId: 'wf-1',
      executionId: 'exec-1',
      status: 'error',
      alertReasons: '3 consecutive failed executions (threshold 3)',
      logLink: '/v1/logs/log-1',
      cost: 0.5,
    });
    expect(JSON.parse(body.dataVariables.payload as string)).toEqual(event);
  });

  it('hands 5xx and 429 to the schedule, and refuses 4xx', async () => {
    const loops = mockService('https://app.loops.so');
    loops.on('POST', '/api/v1/transactional', { status: 503, body: { message: 'down' } }, { status: 400, body: { success: false, message: 'bad template' } });
    const target = emailTarget('k', config, loops.agent);
    expect(await target.send(delivery(), 1000)).toEqual({ kind: 'status', status: 503 });
    expect(await target.send(delivery(), 1000)).toEqual({ kind: 'status', status: 400 });
    expect(loops.requests).toHaveLength(2); // the harness does not retry: the queue does
  });

  it('takes a 409 for its own key on a later attempt as delivered', async () => {
    const loops = mockService('https://app.loops.so');
    loops.on('POST', '/api/v1/transactional', { status: 409, body: { success: false, message: 'duplicate' } }, { status: 409, body: { success: false, message: 'duplicate' } });
    const target = emailTarget('k', config, loops.agent);
    expect(await target.send(delivery(1), 1000)).toEqual({ kind: 'status', status: 409 });
    expect(await target.send(delivery(2), 1000)).toEqual({ kind: 'status', status: 200 });
  });
});
