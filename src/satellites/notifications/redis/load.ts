/**
 * ioredis and BullMQ are optional peers: loaded with `import()` only when a monitor uses the
 * Redis store, so `import 'flowblocks'` and `flowblocks/notifications` never need them.
 */
/** The part of ioredis the store uses (its CommonJS module's typing differs between `import` and `import()`). */
export interface IoRedis {
  Redis: typeof import('ioredis').Redis;
}
export type BullMq = typeof import('bullmq');

const INSTALL = 'npm install bullmq ioredis';

/** Runs `loader`; a missing package becomes an error that says what to install. */
export async function loadOptional<T>(name: string, loader: () => Promise<T>): Promise<T> {
  try {
    return await loader();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(`the Redis store needs the optional packages bullmq and ioredis (${name} is missing): ${INSTALL}`);
    }
    throw error;
  }
}

export async function loadRedisModules(): Promise<{ ioredis: IoRedis; bullmq: BullMq }> {
  const [ioredis, bullmq] = await Promise.all([loadOptional('ioredis', async (): Promise<IoRedis> => ({ Redis: (await import('ioredis')).Redis })), loadOptional('bullmq', () => import('bullmq'))]);
  return { ioredis, bullmq };
}
