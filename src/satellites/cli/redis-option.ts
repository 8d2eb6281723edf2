import type { PacerLike } from '../../harness/types.js';
import { UsageError } from './params.js';

/** The environment variable the commands that run tools read a Redis URL from when `--redis` is absent. */
export const REDIS_ENV = 'FLOWBLOCKS_REDIS_URL';

/** The option's lines of a usage text whose descriptions start at `column`. */
export function redisUsage(column: number): string {
  return `${'  --redis <url>'.padEnd(column)}pace calls with every process sharing this Redis
${' '.repeat(column)}(redis://[user:password@]host:port[/db]; default $${REDIS_ENV})`;
}

/**
 * The Redis URL of `--redis`, else of $FLOWBLOCKS_REDIS_URL, checked; undefined for neither.
 * A bad value is a usage error that names where it came from and never repeats it (it may hold a password).
 */
export function redisUrlOf(flag: string | undefined, env: Record<string, string | undefined>): string | undefined {
  const from = flag !== undefined ? '--redis' : `$${REDIS_ENV}`;
  const value = flag ?? env[REDIS_ENV];
  if (value === undefined || (flag === undefined && value.trim() === '')) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    throw new UsageError(`${from} takes a redis:// or rediss:// URL: redis://[user:password@]host:port[/db]`);
  }
  return value;
}

/** A Redis pacer for one command's calls, its two possible log lines on stderr; `close` ends its connection. */
export async function openRedisPacer(url: string | undefined, stderr: (text: string) => void): Promise<{ pacer?: PacerLike; close(): Promise<void> }> {
  if (url === undefined) return { close: async () => {} };
  const { createRedisPacer } = await import('../../redis/index.js');
  const pacer = await createRedisPacer({ url, logger: (line) => stderr(`${line}\n`) });
  return { pacer, close: () => pacer.close() };
}
