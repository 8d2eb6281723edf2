/** Issue 21's per-call savings: what they cache stays bounded and gives the same answers. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BoundedCache } from '../../src/harness/bounded-cache.js';
import { CallOptions, withIdempotencyKey } from '../../src/harness/run/call-options.js';
import { endpointIssues } from '../../src/harness/run/endpoints.js';
import { defineConnection, PACING_KEYS } from '../../src/harness/define/service.js';

describe('BoundedCache', () => {
  it('keeps at most max entries, dropping the least recently used', () => {
    const cache = new BoundedCache<string, number>(3);
    let made = 0;
    const make = (k: string) => (made++, k.length);
    for (const k of ['a', 'bb', 'ccc']) cache.get(k, make);
    cache.get('a', make); // a is now the newest
    cache.get('dddd', make); // drops bb, the oldest
    expect(cache.size).toBe(3);
    expect(cache.has('bb')).toBe(false);
    expect(cache.has('a') && cache.has('ccc') && cache.has('dddd')).toBe(true);
    expect(made).toBe(4);
    expect(cache.get('bb', make)).toBe(2);
    expect(made).toBe(5);
    expect(cache.size).toBe(3);
  });

  it('stays bounded whatever number of keys passes through', () => {
    const cache = new BoundedCache<number, number>(100);
    for (let i = 0; i < 10_000; i++) cache.get(i, (k) => k * 2);
    expect(cache.size).toBe(100);
    expect(cache.has(9_999) && !cache.has(0)).toBe(true);
  });
});

describe('the pacing key of a credential', () => {
  const connection = defineConnection({
    service: 'example',
    baseUrl: { default: 'https://api.example.test' },
    credential: { param: 'apiKey', schema: z.string(), header: 'authorization', scheme: 'Bearer', env: 'EXAMPLE_KEY' },
    pacing: { limit: 10 },
  });
  const keyOf = (apiKey: string) => connection.request({ apiKey }, {}, { method: 'GET', path: '/x' }).pacing!.key;
  const expected = (apiKey: string) => `example:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;

  it('is a hash of the credential, never the credential, the same on every call', () => {
    expect(keyOf('sk_secret_one')).toBe(expected('sk_secret_one'));
    expect(keyOf('sk_secret_one')).toBe(expected('sk_secret_one'));
    expect(keyOf('sk_secret_one')).not.toContain('sk_secret_one');
    expect(keyOf('sk_secret_two')).toBe(expected('sk_secret_two'));
  });

  it('stays right for credentials past the cache bound', () => {
    const keys = Array.from({ length: PACING_KEYS + 500 }, (_, i) => `sk_${i}`);
    for (const k of keys) keyOf(k);
    // The first ones were dropped from the cache: made again, to the same value.
    for (const k of [keys[0]!, keys[1]!, keys.at(-1)!]) expect(keyOf(k)).toBe(expected(k));
  });
});

describe('CallOptions', () => {
  it('carries every option and makes one key on first read, kept for the call', () => {
    const signal = new AbortController().signal;
    const logger = () => {};
    const options = { endpoints: { x: 'http://h' }, signal, timeoutMs: 5, maxResponseBytes: 9, retry: false as const, pacer: false as const, logger };
    const call = withIdempotencyKey(options);
    expect(call).toBeInstanceOf(CallOptions);
    expect(call).toMatchObject(options);
    const key = call.idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(call.idempotencyKey).toBe(key);
    expect(withIdempotencyKey(options).idempotencyKey).not.toBe(key);
  });

  it('hands the caller\'s options on as they are when they carry a key', () => {
    const options = { idempotencyKey: 'mine' };
    expect(withIdempotencyKey(options)).toBe(options);
  });
});

describe('endpointIssues with its URL cache', () => {
  it('gives the same verdict on a repeat', () => {
    for (let i = 0; i < 2; i++) {
      expect(endpointIssues({ loops: 'http://127.0.0.1:1/api' })).toEqual([]);
      expect(endpointIssues({ loops: 'ftp://h' })).toEqual([{ path: 'endpoints.loops', message: 'not an http(s) URL: "ftp://h"' }]);
      expect(endpointIssues({ loops: 'not a url' })).toHaveLength(1);
      expect(endpointIssues({ loops: 42 })).toHaveLength(1);
    }
  });
});
