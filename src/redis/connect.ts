import type { Redis, RedisOptions } from 'ioredis';


export const IOREDIS_MISSING = 'the Redis pacer needs ioredis, an optional peer dependency: npm install ioredis';

/** Loads ioredis on first use only: nothing of it loads with `import 'flowblocks'`. */
async function loadIoredis(): Promise<typeof Redis> {
  try {
    return (await import('ioredis')).Redis;
  } catch (error) {
    // Missing is the usual cause; the loader's own words follow for any other.
    throw new Error(`${IOREDIS_MISSING} (loading it failed: ${(error as Error).message})`, { cause: error });
  }
}

/**
 * A client that never holds a command back: no offline queue (a command while disconnected
 * fails at once), no re-sending after a dropped connection, and a time limit on every
 * command; it keeps reconnecting in the background, so the pacer can come back to it.
 */
export async function createClient(url: string, commandTimeoutMs: number): Promise<Redis> {
  const Client = await loadIoredis();
  const options: RedisOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(commandTimeoutMs, 1_000),
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  };
  return new Client(url, options);
}

/** The URL as it may be logged: scheme, host, port and database, never a user name or password. */
export function redisLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
  } catch {
    return 'redis (unparsable URL)';
  }
}

/** The URL's password, to mask in any text about the connection (an error may quote it). */
export function redisSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    return [parsed.password, decodeURIComponent(parsed.password)].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}
