import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { executeTool } from '../../index.js';
import type { ToolResult } from '../../harness/types.js';
import { verifyWebhook } from '../../webhooks/index.js';
import * as tinybird from '../../../tools/tinybird/index.js';
import * as loopsTools from '../../../tools/loops/index.js';
import * as workflow from '../../../tools/workflow/index.js';
import type { Sandbox } from './index.js';

/** One step's line in the report: `✓ block  what happened`. */
type Step = (say: (line: string) => void) => Promise<void>;

class TourFailure extends Error {}

function ok<O>(label: string, result: ToolResult<O>): O {
  if (!result.success) throw new TourFailure(`${label}: ${result.error.code} ${result.error.message}`);
  return result.output;
}

const TOUR_CSV = 'timestamp,event,user_id,email,amount\n2026-11-22 09:00:00,signup,csv_1,csv1@example.com,\n2026-11-22 09:05:00,purchase,csv_1,,19.9\n';

export type TourServer = Awaited<ReturnType<typeof startTourServer>>;

/**
 * A loopback server for the tour: serves a CSV to append, and receives the completion
 * webhook. Start it before the sandbox and give its `origin` in `tinybird.importFrom`: the
 * sandbox imports only from its own ports and the origins given at start.
 */
export async function startTourServer(csv = TOUR_CSV) {
  const deliveries: { headers: Record<string, string>; body: string }[] = [];
  let arrived: (() => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/signups.csv') return void res.writeHead(200, { 'content-type': 'text/csv' }).end(csv);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
      arrived?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    csvUrl: `${origin}/signups.csv`,
    hookUrl: `${origin}/hook`,
    deliveries,
    /** Waits for a delivery that mentions `text`. */
    async delivery(text: string, ms: number) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = deliveries.find((d) => d.body.includes(text));
        if (found) return found;
        if (Date.now() > deadline) throw new TourFailure(`no completion webhook within ${ms / 1000} s`);
        await new Promise<void>((resolve) => {
          arrived = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The `npm start` story: every block end to end against the sandbox, one line per step.
 * Returns true when every step worked. It closes `files` when done.
 */
export async function runTour(sb: Sandbox, print: (text: string) => void, files: TourServer): Promise<boolean> {
  const tb = { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken };
  const loops = { apiKey: sb.credentials.loops.apiKey };
  const wf = { base_url: sb.urls.workflow, apiKey: sb.credentials.workflow.apiKey };
  const endpoints = { endpoints: { loops: sb.urls.loops } };
  const secret = 'tour-webhook-secret';
  const notificationsUrl = `${sb.admin.workflow}/workspaces/${sb.credentials.workflow.workspaceId}/notifications`;
  let configuredHook = false;
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');

  const steps: [string, Step][] = [
    ['tinybird', async (say) => {
      const events = [
        { timestamp: now, event: 'signup', user_id: 'tour_1', email: 'ada@example.com' },
        { timestamp: now, event: 'purchase', user_id: 'tour_1', amount: 42 },
        { timestamp: now, event: 'test', user_id: 'tour_2' },
        { timestamp: 'not a time', event: 'broken', user_id: 'tour_3' },
      ];
      const sent = ok('send events', await executeTool(tinybird.events, { ...tb, datasource: 'events', data: events.map((e) => JSON.stringify(e)).join('\n'), wait: true }));
      say(`Send events: ${sent.successful_rows} rows ingested, ${sent.quarantined_rows} quarantined in events_quarantine`);
      const q = ok('query', await executeTool(tinybird.query, { ...tb, query: 'SELECT event, count() AS n FROM events GROUP BY event ORDER BY event FORMAT JSON' }));
      say(`Run SQL query: ${(q.data as { event: string; n: number }[]).map((r) => `${r.event}=${r.n}`).join(', ')}`);
      const pipe = ok('pipe', await executeTool(tinybird.queryPipe, { ...tb, pipe: 'top_events', parameters: { limit: 3 } }));
      say(`Call a pipe endpoint: top_events → ${pipe.data.map((r) => `${String(r.event)} (${String(r.total)})`).join(', ')}`);
      const dry = ok('dry run', await executeTool(tinybird.deleteDatasourceRows, { ...tb, datasource: 'events', delete_condition: "event = 'test'", dry_run: true }));
      const del = ok('delete', await executeTool(tinybird.deleteDatasourceRows, { ...tb, datasource: 'events', delete_condition: "event = 'test'" }));
      const deleted = ok('delete job', await executeTool(tinybird.getJob, { ...tb, job_id: del.job_id!, wait_for_completion: true, timeout_seconds: 30 }));
      say(`Delete rows: dry run matched ${dry.rows_to_be_deleted}; job ${deleted.status} with rows_affected=${deleted.rows_affected}`);
      const append = ok('append', await executeTool(tinybird.appendDatasource, { ...tb, datasource: 'events', url: files.csvUrl }));
      const imported = ok('import job', await executeTool(tinybird.getJob, { ...tb, job_id: append.job_id, wait_for_completion: true, timeout_seconds: 30 }));
      say(`Append from URL: ${files.csvUrl} → job ${imported.status}`);
      await executeTool(tinybird.events, { ...tb, datasource: 'tour_scratch', data: '{"n":1}', wait: true });
      const truncated = ok('truncate', await executeTool(tinybird.truncateDatasource, { ...tb, datasource: 'tour_scratch' }));
      say(`Truncate Data Source: tour_scratch (created from its first event) truncated=${truncated.truncated}`);
    }],
    ['loops', async (say) => {
      const contact = ok('upsert', await executeTool(loopsTools.updateContact, { ...loops, email: 'ada@example.com', firstName: 'Ada', userId: 'tour_1' }, endpoints));
      say(`Update contact: ada@example.com upserted as ${contact.id}`);
      ok('send', await executeTool(loopsTools.sendTransactionalEmail, { ...loops, email: 'ada@example.com', transactionalId: 'tx_welcome', dataVariables: { firstName: 'Ada', confirmationUrl: 'https://example.com/confirm' } }, endpoints));
      const outbox = (await (await fetch(sb.admin.loopsOutbox)).json()) as { emails: { to: string; subject: string }[] };
      const last = outbox.emails.at(-1);
      say(`Send transactional email: outbox now holds "${last?.subject}" to ${last?.to}`);
    }],
    ['workflow', async (say) => {
      const configured = await fetch(notificationsUrl, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channels: [{ type: 'webhook', url: files.hookUrl, secret }], allWorkflows: true, includeFinalOutput: true }),
      });
      if (!configured.ok) throw new TourFailure(`configuring notifications: HTTP ${configured.status}`);
      configuredHook = true;
      const inputs = { email: 'grace@example.com', firstName: 'Grace', userId: 'tour_grace' };
      const accepted = ok('execute', await executeTool(workflow.execute, { ...wf, workflowId: 'wf_signup_pipeline', inputs, async: true }));
      say(`Execute workflow: wf_signup_pipeline (Tinybird → pipe → Loops → e-mail) queued as ${accepted.taskId}`);
      const job = ok('poll', await executeTool(workflow.getJob, { ...wf, taskId: accepted.taskId!, waitForCompletion: true, timeoutSeconds: 60 }));
      say(`Get job: ${job.status} → ${JSON.stringify(job.output)}`);
      const logs = ok('logs', await executeTool(workflow.listLogs, { ...wf, workspaceId: sb.credentials.workflow.workspaceId, limit: 5 }));
      say(`List logs: ${logs.data.length} entries, newest ${logs.data[0]?.workflowId} (${logs.data[0]?.level}, ${logs.data[0]?.totalDurationMs} ms)`);
      const detail = ok('log', await executeTool(workflow.getLog, { ...wf, id: logs.data[0]!.id }));
      say(`Get log: ${detail.data.executionData?.traceSpans?.length ?? 0} trace spans, cost $${detail.data.cost?.total}`);
      const execution = ok('execution', await executeTool(workflow.getExecution, { ...wf, executionId: logs.data[0]!.executionId }));
      say(`Get execution: workflow state with ${Object.keys(execution.workflowState.blocks).length} blocks`);
      const delivery = await files.delivery(accepted.executionId ?? logs.data[0]!.executionId, 15_000);
      const event = verifyWebhook({ body: delivery.body, headers: delivery.headers, secret });
      say(`Completion webhook: ${event.type} for ${event.data.workflowId}, signature verified (delivery ${delivery.headers['svc-delivery-id']})`);
    }],
  ];

  let passed = true;
  try {
    for (const [block, step] of steps) {
      try {
        await step((line) => print(`  ✓ ${block.padEnd(9)} ${line}\n`));
      } catch (error) {
        passed = false;
        print(`  ✗ ${block.padEnd(9)} ${(error as Error).message}\n`);
      }
    }
  } finally {
    // The tour's receiver closes now: later executions must not keep delivering to its port.
    if (configuredHook) await fetch(notificationsUrl, { method: 'DELETE' }).catch(() => undefined);
    await files.close();
  }
  return passed;
}
