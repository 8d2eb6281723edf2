import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeSharedDispatcher, sharedDispatcher } from '../../src/harness/send/dispatcher.js';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { runTool } from '../../src/harness/run/execute.js';
import { ToolCallError } from '../../src/harness/errors.js';
import { paginate } from '../../src/harness/define/paginate.js';
import { mockService } from '../helpers/mock-service.js';
import { ORIGIN, readParts, readTool, SECRET, validParams } from './fixtures.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

describe('the shared keep-alive dispatcher', () => {
  const seen: { remotePort?: number; url?: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push({ remotePort: req.socket.remotePort, url: req.url });
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  let base = '';
  beforeAll(async () => {
    const serverAddress = await listenOnLoopback(server);
    base = serverAddress.origin;
  });
  afterAll(async () => {
    await closeSharedDispatcher();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is used when no dispatcher is given, and keeps connections alive', async () => {
    expect(await sharedDispatcher()).toBe(await sharedDispatcher());
    const params = { ...validParams, base_url: base };
    for (let i = 0; i < 6; i++) {
      const result = await runTool(readTool, params);
      expect(result.success).toBe(true);
    }
    expect(seen).toHaveLength(6);
    expect(seen[0]!.url).toBe('/items?name=widget');
    // Back-to-back calls may open a second socket before the first is handed back; never one per call.
    expect(new Set(seen.map((s) => s.remotePort)).size).toBeLessThanOrEqual(2);
  });

  it('is created anew after being closed', async () => {
    const before = await sharedDispatcher();
    await closeSharedDispatcher();
    expect(await sharedDispatcher()).not.toBe(before);
  });
});

const listTool = defineTool({
  ...readParts,
  id: 'example_list',
  params: z.object({ base_url: z.url(), apiKey: z.string(), cursor: z.string().optional() }),
  output: z.object({ items: z.array(z.number()), next: z.string().nullable() }),
  request: (p) => ({ method: 'GET', url: `${p.base_url}/list`, query: { cursor: p.cursor }, headers: { authorization: p.apiKey } }),
  response: (res) => res.body as { items: number[]; next: string | null },
  pagination: { cursorParam: 'cursor', nextCursor: (o) => o.next, items: (o) => o.items },
});

describe('paginate', () => {
  const params = { base_url: ORIGIN, apiKey: SECRET };

  it('walks every page until the cursor runs out', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/list', { status: 200, body: { items: [1, 2], next: 'c2' } }, { status: 200, body: { items: [3], next: 'c3' } });
    svc.on('GET', '/list', { status: 200, body: { items: [4], next: null } });
    const items: number[] = [];
    for await (const item of paginate<number>(listTool, params, { dispatcher: svc.agent })) items.push(item);
    expect(items).toEqual([1, 2, 3, 4]);
    expect(svc.requests.map((r) => r.query.cursor)).toEqual([undefined, 'c2', 'c3']);
  });

  it('stops at maxItems and maxPages', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/list', { status: 200, body: { items: [1, 2], next: 'c2' } }, { status: 200, body: { items: [3, 4], next: 'c3' } });
    const byItems: number[] = [];
    for await (const item of paginate<number>(listTool, params, { dispatcher: svc.agent, maxItems: 3 })) byItems.push(item);
    expect(byItems).toEqual([1, 2, 3]);
    svc.on('GET', '/list', { status: 200, body: { items: [9], next: 'more' } });
    const byPages: number[] = [];
    for await (const item of paginate<number>(listTool, params, { dispatcher: svc.agent, maxPages: 1 })) byPages.push(item);
    expect(byPages).toEqual([9]);
  });

  it('throws ToolCallError with the real error when a page fails', async () => {
    const svc = mockService(ORIGIN);
    svc.on('GET', '/list', { status: 404, body: { error: 'gone' } });
    const walk = async () => {
      for await (const _ of paginate(listTool, params, { dispatcher: svc.agent })) void _;
    };
    await expect(walk()).rejects.toBeInstanceOf(ToolCallError);
    svc.on('GET', '/list', { status: 404, body: { error: 'gone' } });
    await expect(walk()).rejects.toMatchObject({ error: { code: 'not_found', message: 'gone' } });
  });

  it('refuses a tool without pagination', async () => {
    await expect(paginate(readTool, {}).next()).rejects.toThrow('not a paginated tool');
  });
});
