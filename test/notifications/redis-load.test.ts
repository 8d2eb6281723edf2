import { describe, expect, it } from 'vitest';
import { loadOptional } from '../../src/satellites/notifications/redis/load.js';
import { describeRedisUrl, isRedisUrl } from '../../src/satellites/notifications/redis/url.js';

describe('the Redis store\'s optional packages', () => {
  it('names the install command when a package is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'bullmq'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadOptional('bullmq', () => Promise.reject(missing))).rejects.toThrow('the Redis store needs the optional packages bullmq and ioredis (bullmq is missing): npm install bullmq ioredis');
  });

  it('passes other failures on unchanged', async () => {
    const other = new Error('boom');
    await expect(loadOptional('bullmq', () => Promise.reject(other))).rejects.toBe(other);
  });
});

describe('Redis URLs in the log', () => {
  it('never shows the user or password', () => {
    expect(describeRedisUrl('redis://monitor:s3cret-pw@redis.internal:6380/2')).toBe('redis://redis.internal:6380/2');
    expect(describeRedisUrl('rediss://:s3cret-pw@redis.internal')).toBe('rediss://redis.internal');
    expect(describeRedisUrl('redis://%zz:pw@')).not.toContain('pw');
  });

  it('accepts only redis: and rediss:', () => {
    expect(isRedisUrl('redis://127.0.0.1:6379')).toBe(true);
    expect(isRedisUrl('rediss://h')).toBe(true);
    expect(isRedisUrl('./state')).toBe(false);
    expect(isRedisUrl('http://h')).toBe(false);
  });
});
