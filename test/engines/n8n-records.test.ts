/**
 * Issue 43 item 5: operations that answer records emit one n8n item per record, paired with
 * the input item, with "Return All" / "Limit" (following the cursor of a paged list) and
 * "Simplify" for wide records, as n8n's own "Get Many" operations do.
 */
import { describe, expect, it } from 'vitest';
import { getBlock } from '../../src/index.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { mockService } from '../helpers/mock-service.js';
import { n8nWorkflow, runN8nNode } from './n8n-context.js';

const LOOPS = 'https://app.loops.so';
const TINYBIRD = 'https://api.tinybird.co';
const page = (ids: string[], nextCursor: string | null) => ({
  data: ids.map((id) => ({ id, eventName: `event_${id}`, incomingWebhookPlatform: null })),
  pagination: { totalResults: 3, returnedResults: ids.length, perPage: 20, totalPages: 2, nextCursor, nextPage: null },
});

function run(type: string, agent: unknown, parameters: Record<string, unknown>, credentials: Record<string, unknown>, items = [{ json: {} }]) {
  const { Node } = toN8nNode(getBlock(type)!, { execute: { dispatcher: agent as never }, n8nWorkflow });
  return runN8nNode({ node: new Node(), parameters: parameters as never, credentials: credentials as never, items });
}

describe('n8n: one item per record', () => {
  it('a paged list with Return All follows the cursor: one item per record across pages', async () => {
    const loops = mockService(LOOPS);
    loops.on('GET', '/api/v1/event-patterns', { status: 200, body: page(['a', 'b'], 'cur_2') }, { status: 200, body: page(['c'], null) });
    const { output } = await run('loops', loops.agent, { resource: 'event', operation: 'listEventPatterns', returnAll: true }, { apiKey: 'lk_records_key_001' });
    expect(output[0]!.map((item) => item.json)).toEqual([
      { id: 'a', eventName: 'event_a', incomingWebhookPlatform: null },
      { id: 'b', eventName: 'event_b', incomingWebhookPlatform: null },
      { id: 'c', eventName: 'event_c', incomingWebhookPlatform: null },
    ]);
    expect(output[0]!.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
    expect(loops.requests.map((r) => [r.method, r.path, r.query, r.headers.authorization])).toEqual([
      ['GET', '/api/v1/event-patterns', { perPage: '20' }, 'Bearer lk_records_key_001'],
      ['GET', '/api/v1/event-patterns', { perPage: '20', cursor: 'cur_2' }, 'Bearer lk_records_key_001'],
    ]);
  });

  it('a paged list with a Limit stops at it, asking no further page', async () => {
    const loops = mockService(LOOPS);
    loops.on('GET', '/api/v1/event-patterns', { status: 200, body: page(['a', 'b'], 'cur_2') }, { status: 200, body: page(['c'], null) });
    const { output } = await run('loops', loops.agent, { resource: 'event', operation: 'listEventPatterns', returnAll: false, limit: 1 }, { apiKey: 'lk_records_key_001' });
    expect(output[0]!.map((item) => item.json.id)).toEqual(['a']);
    expect(loops.requests).toHaveLength(1);
  });

  it('a list that does not page is cut at the Limit; each input item gets its own records', async () => {
    const tinybird = mockService(TINYBIRD);
    const pipes = { pipes: [1, 2, 3].map((n) => ({ id: `t_${n}`, name: `pipe_${n}`, type: 'endpoint', endpoint: null, created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00' })) };
    tinybird.on('GET', '/v0/pipes', { status: 200, body: pipes }, { status: 200, body: pipes });
    const { output } = await run('tinybird', tinybird.agent, { resource: 'pipe', operation: 'listPipes', limit: 2 }, { token: 'p.records_token', baseUrl: TINYBIRD }, [{ json: {} }, { json: {} }]);
    expect(output[0]!.map((item) => [item.json.name, item.pairedItem])).toEqual([
      ['pipe_1', { item: 0 }],
      ['pipe_2', { item: 0 }],
      ['pipe_1', { item: 1 }],
      ['pipe_2', { item: 1 }],
    ]);
    expect(tinybird.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/v0/pipes', 'Bearer p.records_token'],
      ['GET', '/v0/pipes', 'Bearer p.records_token'],
    ]);
  });

  it("a query's rows are one item each, with no Limit of its own (the SQL sets it)", async () => {
    const tinybird = mockService(TINYBIRD);
    const answer = { meta: [{ name: 'n', type: 'UInt8' }], data: [{ n: 1 }, { n: 2 }], rows: 2, statistics: { elapsed: 0.001, rows_read: 2, bytes_read: 2 } };
    tinybird.on('GET', '/v0/sql', { status: 200, body: answer });
    tinybird.on('POST', '/v0/sql', { status: 200, body: answer });
    const { output } = await run('tinybird', tinybird.agent, { resource: 'query', operation: 'query', query: 'SELECT number AS n FROM numbers(1, 2) FORMAT JSON' }, { token: 'p.records_token', baseUrl: TINYBIRD });
    expect(output[0]).toEqual([
      { json: { n: 1 }, pairedItem: { item: 0 } },
      { json: { n: 2 }, pairedItem: { item: 0 } },
    ]);
    expect(tinybird.requests).toHaveLength(1);
    const { properties } = new (toN8nNode(getBlock('tinybird')!).Node)().description;
    expect(properties.filter((p) => p.name === 'limit' || p.name === 'returnAll').every((p) => !p.displayOptions?.show?.operation?.includes('query'))).toBe(true);
  });

  it('Simplify keeps a wide record\'s first ten scalar fields; off, the record is whole', async () => {
    const contact = { id: 'c_1', email: 'ada@example.com', firstName: 'Ada', lastName: null, source: 'api', subscribed: true, userGroup: null, userId: null, mailingLists: { l1: true }, optInStatus: null, plan: 'pro' };
    const loops = mockService(LOOPS);
    loops.on('GET', '/api/v1/contacts/find', { status: 200, body: [contact] }, { status: 200, body: [contact] });
    const find = (simplify: boolean) =>
      run('loops', loops.agent, { resource: 'contact', operation: 'findContact', simplify, additionalFields: { email: 'ada@example.com' } }, { apiKey: 'lk_records_key_001' });
    const simple = (await find(true)).output[0]!;
    expect(simple).toEqual([
      { json: { id: 'c_1', email: 'ada@example.com', firstName: 'Ada', lastName: null, source: 'api', subscribed: true, userGroup: null, userId: null, optInStatus: null }, pairedItem: { item: 0 } },
    ]);
    const whole = (await find(false)).output[0]!;
    expect(whole[0]!.json).toMatchObject({ mailingLists: { l1: true }, customProperties: { plan: 'pro' } });
    expect(loops.requests.map((r) => [r.path, r.query])).toEqual([
      ['/api/v1/contacts/find', { email: 'ada@example.com' }],
      ['/api/v1/contacts/find', { email: 'ada@example.com' }],
    ]);
  });
});
