import { describe, expect, it } from 'vitest';
import { redisUrlOf } from '../../src/satellites/cli/redis-option.js';
import { cli } from './run-cli.js';

describe('--redis and $FLOWBLOCKS_REDIS_URL', () => {
  it('takes the flag over the variable, and neither means no Redis', () => {
    expect(redisUrlOf('redis://a:6379', { FLOWBLOCKS_REDIS_URL: 'redis://b:6379' })).toBe('redis://a:6379');
    expect(redisUrlOf(undefined, { FLOWBLOCKS_REDIS_URL: 'rediss://b:6380/2' })).toBe('rediss://b:6380/2');
    expect(redisUrlOf(undefined, {})).toBeUndefined();
    expect(redisUrlOf(undefined, { FLOWBLOCKS_REDIS_URL: ' ' })).toBeUndefined();
  });

  it('names where a bad URL came from and never repeats it (it may hold a password)', () => {
    expect(() => redisUrlOf('http://user:hunter2-secret@host:6379', {})).toThrow(/^--redis takes a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => redisUrlOf(undefined, { FLOWBLOCKS_REDIS_URL: 'redis//:hunter2-secret@host' })).toThrow(/^\$FLOWBLOCKS_REDIS_URL takes a redis:\/\//);
    expect(() => redisUrlOf('', {})).toThrow(/--redis/);
    try {
      redisUrlOf('ftp://:hunter2-secret@host', {});
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('a bad --redis is a usage error of run without the password in the output', async () => {
    const out = await cli(['run', 'loops_test_api_key', '--param', 'apiKey=k', '--redis', 'http://:hunter2-secret@127.0.0.1:1']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^--redis takes a redis:\/\/ or rediss:\/\/ URL/);
    expect(out.stderr + out.stdout).not.toContain('hunter2');
  });
});
