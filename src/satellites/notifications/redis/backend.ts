import type { MonitorBackend, MonitorSession } from '../monitor-backend.js';
import { MonitorError } from '../monitor.js';
import { BullDeliveries } from './bull-deliveries.js';
import { monitorRedis } from './client.js';
import { monitorKeys } from './keys.js';
import { Lease, LeaseHeldError, RedisUnreachableError } from './lease.js';
import { loadRedisModules } from './load.js';
import { untilAborted } from './once-logger.js';
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
        if (error instanceof LeaseHeldError) throw new MonitorError(`${error.message} (--once does not wait for it)`);
        if (error instanceof RedisUnreachableError) {
          // The URL as logged: never its password.
          throw new MonitorError(`Redis unreachable at ${describeRedisUrl(url)}: gave up after ${error.ms / 1000} s, one lease time (--once does not wait longer; last error: ${error.last})`);
        }
        throw error;
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
      // QUIT waits for Redis: behind the commands queued while it is away, or for ever on a server that stopped answering.
      await untilAborted(connection.quit(), AbortSignal.timeout(1_000)).catch(() => connection.disconnect());
    },
  };
}
