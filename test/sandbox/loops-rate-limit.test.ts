import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { call } from './helpers.js';

// A file of its own: the limit is Loops' default, 10 per second per key.
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => sb?.close());

it('answers over 10 requests in a second with 429, the headers and no Retry-After', async () => {
  const replies = await Promise.all(
    Array.from({ length: 25 }, () => call(`${sb.urls.loops}/lists`, { token: sb.credentials.loops.apiKey })),
  );
  const limited = replies.filter((r) => r.status === 429);
  expect(limited.length).toBeGreaterThanOrEqual(5);
  expect(limited[0]!.json).toEqual({ success: false, message: 'Rate limit exceeded' });
  expect(limited[0]!.headers.get('x-ratelimit-limit')).toBe('10');
  expect(limited[0]!.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(limited[0]!.headers.get('retry-after')).toBeNull();
});

it('lets the harness pace a burst of tool calls under the limit without a failure', async () => {
  await new Promise((r) => setTimeout(r, 1100));
  const results = await Promise.all(
    Array.from({ length: 15 }, () =>
      executeTool('loops_list_mailing_lists', { apiKey: sb.credentials.loops.apiKey }, { endpoints: { loops: sb.urls.loops } }),
    ),
  );
  expect(results.filter((r) => !r.success)).toEqual([]);
});
