import { Redis } from 'ioredis';

/** Every key in the server and every value under it, as text: what a look at Redis would show. */
export async function dumpRedis(url: string): Promise<{ keys: string[]; text: string }> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const keys = (await client.keys('*')).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const type = await client.type(key);
      const value =
        type === 'string' ? await client.get(key)
        : type === 'hash' ? await client.hgetall(key)
        : type === 'list' ? await client.lrange(key, 0, -1)
        : type === 'set' ? await client.smembers(key)
        : type === 'zset' ? await client.zrange(key, 0, -1, 'WITHSCORES')
        : type === 'stream' ? await client.xrange(key, '-', '+')
        : `(${type})`;
      parts.push(`${key} ${JSON.stringify(value)}`);
    }
    return { keys, text: parts.join('\n') };
  } finally {
    client.disconnect();
  }
}
