import { expect, it, vi } from 'vitest';

it('names `npm install ioredis` when ioredis is missing, and loads it only when a Redis pacer is created', async () => {
  vi.doMock('ioredis', () => {
    throw new Error("Cannot find package 'ioredis'");
  });
  // Importing the entry does not touch ioredis; creating a pacer does.
  const { createRedisPacer } = await import('../../src/redis/index.js');
  await expect(createRedisPacer({ url: 'redis://127.0.0.1:1' })).rejects.toThrow(/npm install ioredis/);
});
