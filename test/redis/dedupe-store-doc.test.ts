/**
 * docs/webhooks.md's shared dedupe store, run as written against a real redis-server with
 * ioredis (the package's optional Redis peer). Its two import lines are checked and given
 * as bindings; the rest of the block is the doc's text.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCompletedEvent } from '../../src/satellites/notifications/payload.js';
import { signWebhook, verifyWebhook, WebhookDeduplicator } from '../../src/webhooks/index.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const IMPORTS = ["import Redis from 'ioredis';", "import { WebhookDeduplicator } from 'flowblocks/webhooks';"];

/** The fenced js block of docs/webhooks.md that builds the Redis store. */
function docBlock(): string {
  const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const block = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes('const store = {'));
  if (!block) throw new Error('docs/webhooks.md has no js block with `const store = {`');
  return block;
}

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

it('docs/webhooks.md\'s Redis store claims a delivery once, lets it through again after release, and keeps the key for ttlMs', async () => {
  const block = docBlock();
  for (const line of IMPORTS) expect(block).toContain(line);
  const body = IMPORTS.reduce((code, line) => code.replace(line, ''), block);
  const run = new Function('Redis', 'WebhookDeduplicator', 'process', `${body}\nreturn { redis, store, dedupe };`) as (
    ...args: unknown[]
  ) => { redis: Redis; store: { claim(key: string, ttlMs: number): Promise<boolean> }; dedupe: WebhookDeduplicator };
  const { redis, store, dedupe } = run(Redis, WebhookDeduplicator, { env: { REDIS_URL: server.url } });
  try {
    const event = buildCompletedEvent(
      { id: 'log_1', workflowId: 'wf_1', executionId: 'exec_1', level: 'info', trigger: 'api', startedAt: '2026-01-05T12:00:00.000Z', endedAt: '2026-01-05T12:00:01.000Z', totalDurationMs: 1000 },
      { includeFinalOutput: false, includeTraceSpans: false, includeRateLimits: false, includeUsageData: false },
      Date.now(),
    );
    const text = JSON.stringify(event);
    const { headers } = signWebhook({ body: text, secret: 'whsec-doc' });
    const verified = verifyWebhook({ body: text, headers, secret: 'whsec-doc' });
    expect(await dedupe.claim(verified)).toBe(true);
    expect(await dedupe.claim(verified)).toBe(false);
    await dedupe.release(verified);
    expect(await dedupe.claim(verified)).toBe(true);

    expect(await store.claim('webhook:doc-probe', 60_000)).toBe(true);
    expect(await store.claim('webhook:doc-probe', 60_000)).toBe(false);
    const ttl = await redis.pttl('webhook:doc-probe');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // The node-redis form the doc once showed: ioredis sends the object as an argument, Redis refuses it.
    await expect(redis.set('webhook:node-redis-form', '1', { NX: true, PX: 1000 } as never)).rejects.toThrow(/syntax error/);
  } finally {
    redis.disconnect();
  }
});
