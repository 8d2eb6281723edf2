import { describe, expect, it } from 'vitest';
import {
  DEDUPE_ENTRY_BYTES,
  DEDUPE_PROTECTED_MS,
  DedupeStoreFullError,
  MemoryDedupeStore,
  MIN_DEDUPE_TTL_MS,
  signWebhook,
  verifyWebhook,
  WebhookDeduplicator,
  type DedupeStore,
} from '../../src/webhooks/index.js';
import { flatId, heapGrowth } from '../reliability/heap.js';
import { BODY, EVENT, SECRET, signedDelivery, T } from './fixtures.js';

function clock(start = T) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('WebhookDeduplicator', () => {
  it('processes a delivery once and acknowledges its re-signed retry', async () => {
    const dedupe = new WebhookDeduplicator();
    const { headers } = signWebhook(BODY, SECRET, { timestamp: T, deliveryId: 'dlv_1' });
    expect(await dedupe.claim(verifyWebhook({ body: BODY, headers, secret: SECRET, now: T }))).toBe(true);
    // The sender's retry: same body, re-signed later.
    const retry = signWebhook(BODY, SECRET, { timestamp: T + 5_000, deliveryId: 'dlv_1' }).headers;
    expect(await dedupe.claim(verifyWebhook({ body: BODY, headers: retry, secret: SECRET, now: T + 5_000 }))).toBe(false);
  });

  it('keys on the ids that were signed, even if the event is changed after verification', async () => {
    const dedupe = new WebhookDeduplicator();
    const event = signedDelivery().verified();
    const key = dedupe.key(event);
    event.data.executionId = 'exec_other';
    expect(dedupe.key(event)).toBe(key);
    expect(key).toMatch(/^webhook:[\w-]{43}$/);
  });

  it('with byExecutionId off, keeps two events of one execution apart', async () => {
    const alert = { ...EVENT, id: 'evt_alert_7' };
    const byEvent = new WebhookDeduplicator({ byExecutionId: false });
    expect(await byEvent.claim(signedDelivery(EVENT).verified())).toBe(true);
    expect(await byEvent.claim(signedDelivery(alert, 'dlv_alert').verified())).toBe(true);
    expect(await byEvent.claim(signedDelivery(alert, 'dlv_alert').verified())).toBe(false);
    const byExecution = new WebhookDeduplicator();
    expect(await byExecution.claim(signedDelivery(EVENT).verified())).toBe(true);
    expect(await byExecution.claim(signedDelivery(alert, 'dlv_alert').verified())).toBe(false);
  });

  it('lets the retry through after a failed delivery is released', async () => {
    const dedupe = new WebhookDeduplicator();
    const event = signedDelivery().verified();
    expect(await dedupe.claim(event)).toBe(true);
    await dedupe.release(event);
    expect(await dedupe.claim(event)).toBe(true);
    expect(await dedupe.claim(event)).toBe(false);
  });

  it('forgets a delivery after its TTL, which must outlast the replay window', async () => {
    expect(() => new WebhookDeduplicator({ ttlMs: MIN_DEDUPE_TTL_MS - 1 })).toThrow(RangeError);
    const time = clock();
    const dedupe = new WebhookDeduplicator({ store: new MemoryDedupeStore({ now: time.now }), ttlMs: MIN_DEDUPE_TTL_MS });
    const event = signedDelivery().verified();
    expect(await dedupe.claim(event)).toBe(true);
    time.advance(MIN_DEDUPE_TTL_MS - 1);
    expect(await dedupe.claim(event)).toBe(false);
    time.advance(1);
    expect(await dedupe.claim(event)).toBe(true);
  });

  it('hands an asynchronous store one fixed-length key per delivery', async () => {
    const claimed = new Set<string>();
    const store: DedupeStore = {
      claim: async (key) => !claimed.has(key) && claimed.add(key) !== undefined,
      release: async (key) => void claimed.delete(key),
    };
    const dedupe = new WebhookDeduplicator({ store });
    const long = { ...EVENT, data: { ...EVENT.data, executionId: 'x'.repeat(10_000) } };
    expect(await dedupe.claim(signedDelivery(long).verified())).toBe(true);
    expect(await dedupe.claim(signedDelivery(long, 'dlv_2').verified())).toBe(false);
    expect([...claimed].map((key) => key.length)).toEqual([51]);
  });
});

describe('MemoryDedupeStore', () => {
  it('sweeps expired keys and keeps within maxBytes, dropping the oldest once its replay window has passed', () => {
    const time = clock();
    const ttl = 3 * DEDUPE_PROTECTED_MS;
    const store = new MemoryDedupeStore({ now: time.now, maxBytes: 2 * DEDUPE_ENTRY_BYTES });
    expect(store.claim('a', ttl)).toBe(true);
    time.advance(DEDUPE_PROTECTED_MS);
    expect(store.claim('b', ttl)).toBe(true);
    time.advance(DEDUPE_PROTECTED_MS);
    expect(store.claim('c', ttl)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.bytes).toBe(2 * DEDUPE_ENTRY_BYTES);
    // 'a' was dropped for 'c'; 'b', claimed exactly DEDUPE_PROTECTED_MS ago, may go for 'a'.
    expect(store.claim('a', ttl)).toBe(true);
    expect(store.claim('c', ttl)).toBe(false);
    time.advance(ttl);
    expect(store.claim('d', ttl)).toBe(true);
    expect(store.size).toBe(1);
    expect(() => new MemoryDedupeStore({ maxBytes: DEDUPE_ENTRY_BYTES - 1 })).toThrow(RangeError);
  });

  it('never drops a key inside the replay window for the budget: the new claim is refused instead', () => {
    const time = clock();
    const ttl = 24 * 60 * 60_000;
    const store = new MemoryDedupeStore({ now: time.now, maxBytes: 2 * DEDUPE_ENTRY_BYTES });
    expect(store.claim('first', ttl)).toBe(true);
    time.advance(1);
    expect(store.claim('second', ttl)).toBe(true);
    time.advance(DEDUPE_PROTECTED_MS - 2);
    expect(() => store.claim('third', ttl)).toThrow(DedupeStoreFullError);
    expect(() => store.claim('third', ttl)).toThrow(/full \(maxBytes 320\) of deliveries still inside the replay window/);
    // The replay of the first delivery is still known, and nothing was added.
    expect(store.claim('first', ttl)).toBe(false);
    expect(store.size).toBe(2);
    time.advance(1);
    expect(store.claim('third', ttl)).toBe(true);
    expect(store.claim('second', ttl)).toBe(false);
  });

  it('holds 20,000 keys of 8 KB each in the same memory as short ones', async () => {
    const store = new MemoryDedupeStore();
    const grew = await heapGrowth(() => {
      for (let i = 0; i < 20_000; i++) expect(store.claim(flatId(8192, i), 60_000)).toBe(true);
    });
    expect(store.size).toBe(20_000);
    expect(store.bytes).toBe(20_000 * DEDUPE_ENTRY_BYTES);
    // The keys themselves are 164 MB; what stays is the digests, within the accounted bytes.
    expect(grew).toBeLessThan(store.bytes);
  });
});
