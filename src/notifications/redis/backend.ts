import type { MonitorBackend, MonitorSession } from '../monitor-backend.js';
import { MonitorError } from '../monitor.js';
import { BullDeliveries } from './bull-deliveries.js';
import { monitorRedis } from './client.js';
import { monitorKeys } from './keys.js';
import { Lease, LeaseHeldError } from './lease.js';
import { loadRedisModules } from './load.js';
import { RedisStateStore } from './state-store.js';
import { describeRedisUrl } from './url.js';

export interface RedisBackendOptions {
  url: string;
  baseUrl: string;
  workspaceId: string;
  leaseMs: number;
  log(line: string): void;
}

/**
 * State, lease and deliveries in Redis, for monitors on several machines: one holds the
 * lease and acts, the others wait in `acquire` and take over when it is gone.
 */
export async function redisBackend(options: RedisBackendOptions): Promise<MonitorBackend> {
  const { url, leaseMs, log } = options;
  const modules = await loadRedisModules();
  const keys = monitorKeys(options.baseUrl, options.workspaceId);
  const redis = monitorRedis(modules.ioredis, url, Math.max(250, Math.round(leaseMs / 3)));
  // BullMQ's own connection: its workers need commands that wait for Redis rather than fail.
  const connection = new modules.ioredis.Redis(url, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(times * 100, 1_000) });
  connection.on('error', () => {});
  return {
    description: `${describeRedisUrl(url)} (lease ${leaseMs / 1000} s)`,
    async acquire(signal, { wait }): Promise<MonitorSession | undefined> {
      const lease = await Lease.acquire({ redis, keys, leaseMs, log }, signal, { wait }).catch((error: unknown) => {
        throw error instanceof LeaseHeldError ? new MonitorError(`${error.message} (--once does not wait for it)`) : error;
      });
      if (!lease) return undefined;
      log(`lease taken (fencing token ${lease.token})`);
      const loaded = await RedisStateStore.read(redis, keys, lease, log);
      const store = new RedisStateStore(redis, keys, lease, loaded, log);
      return {
        store,
        lost: lease.lost,
        deliveries: (notifier) => new BullDeliveries({ bullmq: modules.bullmq, connection, keys, lease, store, notifier, leaseMs, log }),
        end: () => lease.release(),
      };
    },
    async close() {
      redis.disconnect();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
