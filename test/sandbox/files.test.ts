import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';

const dir = mkdtempSync(join(tmpdir(), 'flowblocks-sandbox-files-'));
let sb: Sandbox;

beforeAll(async () => {
  writeFileSync(
    join(dir, 'orders.datasource'),
    [
      'DESCRIPTION >',
      '    Orders, with the customer nested in each event',
      '',
      'SCHEMA >',
      '    `order_id` String `json:$.id`,',
      '    `customer` String `json:$.customer.email`,',
      "    `status` LowCardinality(String) `json:$.status` DEFAULT 'new',",
      '    `total` Float64 `json:$.total`',
      '',
      'ENGINE "MergeTree"',
      'ENGINE_SORTING_KEY "order_id"',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'orders_by_status.pipe'),
    ['NODE endpoint', 'SQL >', '    %', '    SELECT status, count() AS n, sum(total) AS revenue FROM orders', '    GROUP BY status ORDER BY status'].join('\n'),
  );
  writeFileSync(
    join(dir, 'wf_order.json'),
    JSON.stringify({
      id: 'wf_order',
      name: 'Record an order',
      workspaceId: 'ws_sandbox',
      deployed: true,
      inputs: { id: { type: 'string', required: true }, email: { type: 'string', required: true }, total: { type: 'number', required: true } },
      blocks: {
        record: {
          type: 'tinybird',
          operation: 'events',
          params: { base_url: '{{env.TINYBIRD_URL}}', token: '{{env.TINYBIRD_TOKEN}}', datasource: 'orders', wait: true, data: { $json: { id: '{{inputs.id}}', customer: { email: '{{inputs.email}}' }, total: '{{inputs.total}}' } } },
        },
        summary: { type: 'tinybird', operation: 'query_pipe', params: { base_url: '{{env.TINYBIRD_URL}}', token: '{{env.TINYBIRD_TOKEN}}', pipe: 'orders_by_status' } },
      },
      edges: [{ source: 'record', target: 'summary' }],
      output: { byStatus: '{{summary.data}}' },
    }),
  );
  sb = await startSandbox({ schemaDir: dir, workflowsDir: dir });
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('declares Data Sources and pipes from files, and runs a workflow from a JSON file', async () => {
  const run = await executeTool('workflow_execute', {
    base_url: sb.urls.workflow,
    apiKey: sb.credentials.workflow.apiKey,
    workflowId: 'wf_order',
    inputs: { id: 'o1', email: 'buyer@example.com', total: 12.5 },
  });
  // The nested JSONPath filled `customer`, and the missing status took its DEFAULT.
  expect(run).toMatchObject({ success: true, output: { success: true, output: { byStatus: [{ status: 'new', n: 1, revenue: 12.5 }] } } });
  const rows = await executeTool('tinybird_query', { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.readToken, query: 'SELECT order_id, customer FROM orders FORMAT JSON' });
  expect(rows).toMatchObject({ success: true, output: { data: [{ order_id: 'o1', customer: 'buyer@example.com' }] } });
});
