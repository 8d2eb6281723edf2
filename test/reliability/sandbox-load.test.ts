/**
 * The sandbox under load: 2,000 executions through the workflow API (through the
 * `workflow_execute` tool, 5% of requests answered with an injected 429) with completion
 * notifications on. Every execution gets exactly one log, every notification exactly one
 * delivery id, and no answer is a 5xx (none are injected here).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import type { HarnessEvent } from '../../src/harness/types.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { eventually } from '../sandbox/helpers.js';
import { canary, leaks } from './canary.js';
import { runPool } from './run-pool.js';
import { tally } from './tally.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const EXECUTIONS = 2000;
const API_KEY = canary('wfkey');
const WEBHOOK_SECRET = canary('whsec');
const WORKSPACE = 'ws_load';
const family = tally('Sandbox under load', 'execution');

let sb: Sandbox;
let receiver: Server;
const deliveries: { deliveryId: string; executionId: string; raw: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const executionId = (JSON.parse(raw) as { data: { executionId: string } }).data.executionId;
      deliveries.push({ deliveryId: String(req.headers['svc-delivery-id']), executionId, raw: raw + JSON.stringify(req.headers) });
      res.writeHead(200).end('ok');
    });
  });
  const receiverAddress = await listenOnLoopback(receiver);
  const hook = `${receiverAddress.origin}/hook`;
  sb = await startSandbox({
    faultSeed: 3,
    tinybird: { queriesPerSecond: 100_000 },
    workflow: {
      jobStepMs: 5,
      // An enterprise key: its async burst (2,000) takes the whole run without waiting.
      apiKeys: [{ key: API_KEY, workspaceId: WORKSPACE, plan: 'enterprise' }],
      workflows: [
        {
          id: 'wf_load',
          name: 'Load',
          workspaceId: WORKSPACE,
          deployed: true,
          blocks: {
            one: { type: 'tinybird', operation: 'query', params: { base_url: '{{env.TINYBIRD_URL}}', token: '{{env.TINYBIRD_TOKEN}}', query: 'SELECT 1 AS n FORMAT JSON' } },
          },
          output: { n: '{{one.data.0.n}}' },
        },
      ],
      notifications: { [WORKSPACE]: { channels: [{ type: 'webhook', url: hook, secret: WEBHOOK_SECRET }], allWorkflows: true } },
    },
  });
}, 60_000);

afterAll(async () => {
  await sb?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  family.save('sandbox-load');
});

it('2,000 executions: one log each, one delivery id per notification, no 5xx', async () => {
  const statuses: number[] = [];
  const logger = (event: HarnessEvent) => {
    if (event.type === 'response') statuses.push(event.status);
  };
  const auth = { base_url: sb.urls.workflow, apiKey: API_KEY };
  const executionIds: string[] = [];
  const failures: string[] = [];
  sb.setFaults({ workflow: { rate429: 0.05 } });
  await runPool(Array.from({ length: EXECUTIONS }, (_, i) => i), 16, async () => {
    const result = await executeTool('workflow_execute', { ...auth, workflowId: 'wf_load', async: true }, { logger });
    if (result.success) executionIds.push((result.output as { executionId: string }).executionId);
    else failures.push(`${result.error.code}: ${result.error.message}`);
  });
  sb.setFaults({});
  expect(failures).toEqual([]);
  expect(new Set(executionIds).size).toBe(EXECUTIONS);

  // Every execution finishes and is logged once.
  const logs = await eventually(async () => {
    const page = await executeTool('workflow_list_logs', { ...auth, workspaceId: WORKSPACE, limit: 1000, followCursor: true, maxPages: 10 }, { logger });
    const data = page.success ? ((page.output as { data: { executionId: string; level: string }[] }).data) : [];
    return data.length >= EXECUTIONS ? data : undefined;
  }, 60_000);
  const logsPer = new Map<string, number>();
  for (const log of logs) logsPer.set(log.executionId, (logsPer.get(log.executionId) ?? 0) + 1);

  // Every completion is notified; retries (if any) keep the delivery id.
  await eventually(async () => (new Set(deliveries.map((d) => d.executionId)).size >= EXECUTIONS ? true : undefined), 60_000);
  const idsPer = new Map<string, Set<string>>();
  for (const d of deliveries) idsPer.set(d.executionId, (idsPer.get(d.executionId) ?? new Set()).add(d.deliveryId));

  for (const id of executionIds) family.record(logsPer.get(id) === 1 && idsPer.get(id)?.size === 1);
  family.note(`${statuses.filter((s) => s === 429).length} injected 429 answers, retried; ${deliveries.length} webhook deliveries received`);
  expect(logs).toHaveLength(EXECUTIONS);
  expect(executionIds.filter((id) => logsPer.get(id) !== 1)).toEqual([]);
  expect(executionIds.filter((id) => idsPer.get(id)?.size !== 1)).toEqual([]);
  expect(new Set(deliveries.map((d) => d.deliveryId)).size).toBe(EXECUTIONS);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  // The webhook secret signs deliveries; it is never in one.
  expect(leaks(deliveries.map((d) => d.raw).join('\n'), [WEBHOOK_SECRET, API_KEY])).toEqual([]);
}, 150_000);
