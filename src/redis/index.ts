/**
 * `flowblocks/redis`: pacing shared by every process of a fleet through Redis. ioredis, an
 * optional peer dependency, loads only when `createRedisPacer` is called.
 */
import type { Redis } from 'ioredis';
import { createClient, redisLabel, redisSecrets } from './connect.js';
import { RedisPacer, type RedisPacerSettings } from './pacer.js';
import { RedisLink, type RedisLinkOptions } from './redis-link.js';

export { RedisPacer, type RedisPacerSettings } from './pacer.js';
export { IOREDIS_MISSING } from './connect.js';

export interface RedisPacerOptions extends RedisPacerSettings, RedisLinkOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`): the pacer opens, and closes, its own connection. */
  url?: string;
  /**
   * An ioredis client of yours instead (closed by you, not by `close()`). Give it
   * `enableOfflineQueue: false`: every command is bounded by `commandTimeoutMs` either way,
   * but with a queue a call waits that long before falling back.
   */
  client?: Redis;
}

/**
 * A pacer for `executeTool(…, { pacer })`, the agents and the Sim and n8n adapters that keeps
 * every process sharing this Redis under one rate limit per service and credential. Resolves
 * once the first connection has succeeded or failed (within `commandTimeoutMs`, at least 1 s):
 * without Redis it paces in this process and says so once in `logger`.
 */
export async function createRedisPacer(options: RedisPacerOptions): Promise<RedisPacer> {
  if (!options.client && !options.url) throw new Error('createRedisPacer needs url or client');
  const commandTimeoutMs = options.commandTimeoutMs ?? 500;
  const client = options.client ?? (await createClient(options.url!, commandTimeoutMs));
  const label = options.url ? redisLabel(options.url) : `${client.options.host ?? 'localhost'}:${client.options.port ?? 6379}`;
  const link = new RedisLink(client, label, redisSecrets(options.url), !options.client, options);
  await link.connect();
  return new RedisPacer(link, options);
}
