import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { paginate } from '../../src/harness/define/paginate.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readParts, SECRET } from './fixtures.js';

/** A list whose last page ends with whatever cursor the service sends: null, undefined, '' or absent. */
const listTool = defineTool({
  ...readParts,
  id: 'example_list_cursor',
  params: z.object({ base_url: z.url(), apiKey: z.string(), cursor: z.string().optional() }),
  output: z.object({ items: z.array(z.number()), next: z.string().nullable().optional() }),
  request: (p) => ({ method: 'GET', url: `${p.base_url}/list`, query: { cursor: p.cursor }, headers: { authorization: p.apiKey } }),
  response: (res) => res.body as { items: number[]; next?: string | null },
  pagination: { cursorParam: 'cursor', nextCursor: (o) => o.next, items: (o) => o.items },
});

const params = { base_url: ORIGIN, apiKey: SECRET };

async function walk(options: Parameters<typeof paginate>[2]): Promise<number[]> {
  const items: number[] = [];
  for await (const item of paginate<number>(listTool, params, options)) items.push(item);
  return items;
}

describe('paginate stops on every empty cursor', () => {
  // `maxPages` defaults to Infinity: a walk that missed the end would fetch page one for ever.
  it.each([
    ['null', { next: null }],
    ['an empty string', { next: '' }],
    ['absent (undefined)', {}],
  ])('stops after the last page when its cursor is %s', async (_, end) => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/list', { status: 200, body: { items: [1, 2], next: 'c2' } }, { status: 200, body: { items: [3], ...end } });
    // A guard so that a walk past the end fails here instead of hanging: a third page would be 99.
    svc.on('GET', '/list', ...Array.from({ length: 5 }, () => ({ status: 200, body: { items: [99], next: 'again' } })));
    expect(await walk({ dispatcher: svc.agent, maxPages: 8 })).toEqual([1, 2, 3]);
    expect(svc.requests.map((r) => r.query.cursor)).toEqual([undefined, 'c2']);
  });

  it('starts from a cursor given in the params, and counts maxItems across pages', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/list', { status: 200, body: { items: [5, 6], next: 'c7' } }, { status: 200, body: { items: [7, 8], next: 'c9' } });
    const items: number[] = [];
    for await (const item of paginate<number>(listTool, { ...params, cursor: 'c5' }, { dispatcher: svc.agent, maxItems: 3 })) items.push(item);
    expect(items).toEqual([5, 6, 7]);
    expect(svc.requests.map((r) => r.query.cursor)).toEqual(['c5', 'c7']);
  });

  it('maxPages: 2 fetches exactly two pages; maxItems: 0 yields nothing', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/list', ...Array.from({ length: 3 }, (_, i) => ({ status: 200, body: { items: [i], next: `c${i + 1}` } })));
    expect(await walk({ dispatcher: svc.agent, maxPages: 2 })).toEqual([0, 1]);
    expect(svc.requests).toHaveLength(2);
    const none = mockService(ORIGIN);
    none.on('GET', '/list', { status: 200, body: { items: [1], next: null } });
    expect(await walk({ dispatcher: none.agent, maxItems: 0 })).toEqual([]);
  });
});
