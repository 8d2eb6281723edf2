/**
 * Issue 43 item 6: Tinybird's Send Events in n8n takes objects (`={{ $json }}`) as well as
 * NDJSON or JSON text, and sends every input item's events as one `/v0/events` NDJSON request
 * (the tool's own chunking when they outgrow a request), each item getting its own output,
 * and a failed request's rows mapped back to the items that gave them.
 */
import { describe, expect, it } from 'vitest';
import type { INodeExecutionData } from 'n8n-workflow';
import { getBlock } from '../../src/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { mockService } from '../helpers/mock-service.js';
import { n8nWorkflow, runN8nNode } from './n8n-context.js';

const TINYBIRD = 'https://api.tinybird.co';
const credentials = { token: 'p.events_token_0001', baseUrl: TINYBIRD };

/** Each item's own `data`, as n8n resolves an expression per item. */
function run(agent: unknown, datas: unknown[], extra: Record<string, unknown> = {}, continueOnFail = false) {
  const { Node } = toN8nNode(getBlock('tinybird')!, { execute: { dispatcher: agent as never, retry: { baseDelayMs: 1, maxDelayMs: 2 } }, n8nWorkflow });
  const items: INodeExecutionData[] = datas.map((data) => ({ json: { data } as never }));
  return runN8nNode({
    node: new Node(),
    parameters: { resource: 'dataSource', operation: 'events', datasource: 'events', data: '={{ $json.data }}', ...extra } as never,
    credentials: credentials as never,
    items,
    continueOnFail,
    perItem: { data: (i) => datas[i] },
  });
}

describe('n8n: Tinybird Send Events', () => {
  it('joins every item (an object, NDJSON text, an array) into one NDJSON request, each item with its own output', async () => {
    const tinybird = mockService(TINYBIRD);
    tinybird.on('POST', '/v0/events', { status: 202, body: { successful_rows: 5, quarantined_rows: 0 } });
    const { output } = await run(tinybird.agent, [
      { event: 'a', n: 1 },
      '{"event":"b","n":2}\n{"event":"c","n":3}\n',
      [{ event: 'd' }, { event: 'e' }],
    ]);
    expect(tinybird.requests.map((r) => [r.method, r.path, r.query, r.headers.authorization, r.body])).toEqual([
      ['POST', '/v0/events', { name: 'events' }, 'Bearer p.events_token_0001', '{"event":"a","n":1}\n{"event":"b","n":2}\n{"event":"c","n":3}\n{"event":"d"}\n{"event":"e"}\n'],
    ]);
    const batch = { items: 3, rows: 5, successful_rows: 5, quarantined_rows: 0 };
    expect(output[0]).toEqual([
      { json: { rows: 1, first_row: 1, last_row: 1, batch }, pairedItem: { item: 0 } },
      { json: { rows: 2, first_row: 2, last_row: 3, batch }, pairedItem: { item: 1 } },
      { json: { rows: 2, first_row: 4, last_row: 5, batch }, pairedItem: { item: 2 } },
    ]);
  });

  it('an item whose events are not JSON objects fails alone; the others still go as one request', async () => {
    const tinybird = mockService(TINYBIRD);
    tinybird.on('POST', '/v0/events', { status: 202, body: { successful_rows: 2, quarantined_rows: 0 } });
    const { output } = await run(tinybird.agent, [{ event: 'a' }, 'not json', { event: 'c' }], {}, true);
    expect(tinybird.requests.map((r) => r.body)).toEqual(['{"event":"a"}\n{"event":"c"}\n']);
    expect(output[0]!.map((item) => [item.pairedItem, item.json.error ?? item.json.rows])).toEqual([
      [{ item: 0 }, 1],
      [{ item: 1 }, expect.stringContaining('line 1 is not valid JSON')],
      [{ item: 2 }, 1],
    ]);
  });

  it('a request refused in a split batch fails only the items whose rows it held', async () => {
    const tinybird = mockService(TINYBIRD);
    const big = (name: string) => ({ event: name, pad: 'x'.repeat(700) });
    tinybird.on(
      'POST',
      '/v0/events',
      { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } },
      { status: 400, body: { error: 'bad row' } },
      { status: 202, body: { successful_rows: 1, quarantined_rows: 0 } },
    );
    const { output } = await run(tinybird.agent, [big('a'), big('b'), big('c')], { maxRequestBytes: 1024, concurrency: 1 }, true);
    expect(tinybird.requests.map((r) => JSON.parse(String(r.body)).event)).toEqual(['a', 'b', 'c']);
    const [first, second, third] = output[0]!;
    expect(first).toEqual({ json: { rows: 1, first_row: 1, last_row: 1, batch: { items: 3, rows: 3 } }, pairedItem: { item: 0 } });
    expect(second!.pairedItem).toEqual({ item: 1 });
    expect(second!.json.error).toMatch(/row 2 not ingested/);
    expect(third).toEqual({ json: { rows: 1, first_row: 3, last_row: 3, batch: { items: 3, rows: 3 } }, pairedItem: { item: 2 } });
  });
});
