import type { Redis } from 'ioredis';
import type { IoRedis } from './load.js';
import { ACQUIRE, FENCED_SET, RELEASE, RENEW } from './scripts.js';

/** The scripts as commands of the client (ioredis sends EVALSHA, and the script once if Redis lacks it). */
export interface MonitorRedis extends Redis {
  acquireLease(lease: string, fence: string, owner: string, ms: number): Promise<number>;
  renewLease(lease: string, fence: string, owner: string, ms: number, token: number): Promise<number>;
  releaseLease(lease: string, owner: string): Promise<number>;
  fencedSet(fence: string, key: string, token: number, value: string): Promise<number>;
}

/**
 * A client that fails fast while Redis is away (no offline queue, a time limit per command)
 * so the lease and the writes notice and retry on their own schedule; it reconnects by itself.
 */
export function monitorRedis(ioredis: IoRedis, url: string, commandTimeoutMs: number): MonitorRedis {
  const client = new ioredis.Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  });
  client.defineCommand('acquireLease', { numberOfKeys: 2, lua: ACQUIRE });
  client.defineCommand('renewLease', { numberOfKeys: 2, lua: RENEW });
  client.defineCommand('releaseLease', { numberOfKeys: 1, lua: RELEASE });
  client.defineCommand('fencedSet', { numberOfKeys: 2, lua: FENCED_SET });
  // Errors reach the callers of each command; an 'error' event without a listener would throw.
  client.on('error', () => {});
  return client as MonitorRedis;
}
