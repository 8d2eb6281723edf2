/**
 * What the Redis code lets out of the process: the URL as logged (never a user or password),
 * the password to mask, the monitor's keys (hashes, never an id from outside), and the pacer's
 * client options (no command held back). No Redis needed.
 */
import { describe, expect, it } from 'vitest';
import { monitorKeys } from '../../src/satellites/notifications/redis/keys.js';
import { describeRedisUrl, isRedisUrl } from '../../src/satellites/notifications/redis/url.js';
import { createClient, redisLabel, redisSecrets } from '../../src/redis/connect.js';

describe('Redis URLs as logged', () => {
  it('redisLabel keeps scheme, host, port and database, never the user or password', () => {
    expect(redisLabel('redis://user:pw-canary@cache.internal:6380/2')).toBe('redis://cache.internal:6380/2');
    expect(redisLabel('rediss://:pw-canary@cache.internal')).toBe('rediss://cache.internal');
    expect(redisLabel('redis://cache.internal:6379/')).toBe('redis://cache.internal:6379');
    expect(redisLabel('not a url pw-canary')).toBe('redis (unparsable URL)');
  });

  it('describeRedisUrl keeps scheme, host, port and database, never the user or password', () => {
    expect(describeRedisUrl('redis://user:pw-canary@cache.internal:6380/2')).toBe('redis://cache.internal:6380/2');
    expect(describeRedisUrl('rediss://:pw-canary@cache.internal')).toBe('rediss://cache.internal');
    expect(describeRedisUrl('redis://cache.internal:6379/')).toBe('redis://cache.internal:6379');
    expect(describeRedisUrl('not a url pw-canary')).toBe('redis (unparsable URL)');
  });

  it('isRedisUrl takes redis: and rediss: only, at the start', () => {
    expect(isRedisUrl('redis://h')).toBe(true);
    expect(isRedisUrl('REDISS://h')).toBe(true);
    expect(isRedisUrl('http://redis://h')).toBe(false);
    expect(isRedisUrl('redis:h')).toBe(false);
    expect(isRedisUrl('redisx://h')).toBe(false);
  });

  it('redisSecrets names the password as written and decoded, and nothing for none', () => {
    expect(redisSecrets('redis://u:p%40ss%2Fw@h:1')).toEqual(['p%40ss%2Fw', 'p@ss/w']);
    expect(redisSecrets('redis://:plain@h')).toEqual(['plain', 'plain']);
    expect(redisSecrets('redis://user@h')).toEqual([]);
    expect(redisSecrets('redis://h')).toEqual([]);
    expect(redisSecrets(undefined)).toEqual([]);
    expect(redisSecrets('')).toEqual([]);
    expect(redisSecrets('not a url')).toEqual([]);
  });
});

describe('monitor keys', () => {
  it('hashes the origin and workspace: no id from outside becomes a key, and each workspace has its own', () => {
    const k = monitorKeys('https://platform.example.com/api/v1?x=1', '__proto__:{evil}');
    const ns = /^flowblocks:monitor:([0-9a-f]{16}):lease$/.exec(k.lease)?.[1];
    expect(ns).toBeDefined();
    expect(k).toEqual({ lease: `flowblocks:monitor:${ns}:lease`, fence: `flowblocks:monitor:${ns}:fence`, state: `flowblocks:monitor:${ns}:state`, bullPrefix: 'flowblocks', queueName: `monitor-${ns}-deliveries` });
    // Only the origin counts: the same platform under another path is the same workspace.
    expect(monitorKeys('https://platform.example.com/other', '__proto__:{evil}')).toEqual(k);
    expect(monitorKeys('https://platform.example.com', 'ws-2').lease).not.toBe(k.lease);
    expect(monitorKeys('https://other.example.com', '__proto__:{evil}').lease).not.toBe(k.lease);
    // The separator keeps ("a", "b\nc") and ("a\nb", "c") apart only if origins cannot hold it; they cannot.
    expect(monitorKeys('https://a.example.com', 'ws').lease).not.toBe(monitorKeys('https://a.example.com', 'ws ').lease);
  });
});

describe("the pacer's own client", () => {
  it('holds no command back: no offline queue, no re-sending, a time limit per command, reconnects in the background', async () => {
    const client = await createClient('redis://127.0.0.1:1', 300);
    try {
      expect(client.status).toBe('wait'); // lazy: nothing connects before the pacer asks
      const o = client.options;
      expect(o.enableOfflineQueue).toBe(false);
      expect(o.maxRetriesPerRequest).toBe(0);
      expect(o.commandTimeout).toBe(300);
      expect(o.connectTimeout).toBe(1_000);
      expect(o.retryStrategy?.(1)).toBe(100);
      expect(o.retryStrategy?.(5)).toBe(500);
      expect(o.retryStrategy?.(50)).toBe(1_000);
    } finally {
      client.disconnect();
    }
    const slow = await createClient('redis://127.0.0.1:1', 2_500);
    expect(slow.options.connectTimeout).toBe(2_500);
    slow.disconnect();
  });
});
