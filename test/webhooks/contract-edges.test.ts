import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deliveryHeaders,
  headerNames,
  MemoryDedupeStore,
  signWebhook,
  verifyWebhook,
  WebhookDeduplicator,
} from '../../src/webhooks/index.js';
import { BODY, SECRET, T } from './fixtures.js';

describe('delivery headers at their edges', () => {
  it('names every header in lower case, whatever the case of the prefix, and the names find the headers of a delivery', () => {
    expect(headerNames('SIM')).toEqual({
      event: 'sim-event',
      timestamp: 'sim-timestamp',
      deliveryId: 'sim-delivery-id',
      signature: 'sim-signature',
      idempotencyKey: 'idempotency-key',
    });
    const { headers } = signWebhook(BODY, SECRET, { timestamp: T, deliveryId: 'dlv_9' });
    const received = new Headers(headers);
    const names = headerNames();
    expect(received.get(names.idempotencyKey)).toBe('dlv_9');
    expect(received.get(names.deliveryId)).toBe('dlv_9');
  });

  it('takes its arguments as one object, as signLoopsWebhook does, with the same result as the positional form', () => {
    const positional = signWebhook(BODY, [SECRET, 'whsec-next'], { timestamp: T, deliveryId: 'dlv_7', event: 'workflow.execution.test', prefix: 'sim' });
    const whole = signWebhook({ body: BODY, secret: [SECRET, 'whsec-next'], timestamp: T, deliveryId: 'dlv_7', event: 'workflow.execution.test', prefix: 'sim' });
    expect(whole).toEqual(positional);
    expect(whole.headers['sim-delivery-id']).toBe('dlv_7');
    expect(whole.signature.match(/v1=/g)).toHaveLength(2);
    const bytes = signWebhook({ body: new TextEncoder().encode(BODY), secret: SECRET, timestamp: T });
    expect(bytes.signature).toBe(signWebhook(BODY, SECRET, { timestamp: T }).signature);
    expect(verifyWebhook({ body: BODY, headers: signWebhook({ body: BODY, secret: SECRET }).headers, secret: SECRET }).id).toBeDefined();
    // @ts-expect-error the object form needs a secret
    expect(() => signWebhook({ body: BODY })).toThrow(new TypeError('signWebhook needs a secret: signWebhook({ body, secret }) or signWebhook(body, secret)'));
  });

  it('sends the event type it is given', () => {
    const { headers } = signWebhook(BODY, SECRET, { timestamp: T, event: 'workflow.execution.test' });
    expect(headers['svc-event']).toBe('workflow.execution.test');
  });

  it('takes a timestamp of 0 (the epoch) and refuses a negative one', () => {
    expect(deliveryHeaders({ body: BODY, deliveryId: 'd', timestamp: 0 })['svc-timestamp']).toBe('0');
    expect(() => deliveryHeaders({ body: BODY, deliveryId: 'd', timestamp: -1 })).toThrow(
      new TypeError('timestamp must be a Unix time in whole milliseconds'),
    );
  });

  it('signs the UTF-8 bytes of a text secret and a text body, the same as the bytes of that body', () => {
    const secret = 'whsec-ünïcødé-€';
    const body = '{"note":"ø € 🙂"}';
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(Buffer.concat([Buffer.from(`${T}.`), Buffer.from(body, 'utf8')]))
      .digest('hex');
    expect(signWebhook(body, secret, { timestamp: T }).signature).toBe(`t=${T},v1=${expected}`);
    expect(signWebhook(new TextEncoder().encode(body), secret, { timestamp: T }).signature).toBe(`t=${T},v1=${expected}`);
  });
});

describe('signature header parts', () => {
  it('ignores a part without "=", even one that starts like a key', () => {
    const { headers } = signWebhook(BODY, SECRET, { timestamp: T, deliveryId: 'dlv_1' });
    for (const extra of ['t1', 'v1x', 'junk']) {
      const signature = `${headers['svc-signature']!},${extra}`;
      expect(verifyWebhook({ body: BODY, headers: { 'svc-signature': signature }, secret: SECRET, now: T }).id).toBe('evt_exec_7');
    }
  });
});

describe('deduplicator inputs', () => {
  it('refuses anything that is not an object verifyWebhook returned, without crashing on it', () => {
    const dedupe = new WebhookDeduplicator();
    for (const value of [null, undefined, 'evt_exec_7', 7]) {
      expect(() => dedupe.key(value as never)).toThrow(new TypeError('pass what verifyWebhook or verifyLoopsWebhook returned: only a verified delivery may claim a key'));
    }
  });
});

describe('MemoryDedupeStore with keys of different lifetimes', () => {
  it('refuses a budget under one key, saying how much one key needs', () => {
    expect(() => new MemoryDedupeStore({ maxBytes: 159 })).toThrow(new RangeError('maxBytes must be at least 160 (one key)'));
  });

  it('lets a short-lived key be claimed again when it ends, though a longer-lived key came before it', () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now });
    expect(store.claim('long', 10_000)).toBe(true);
    expect(store.claim('short', 100)).toBe(true);
    now = 1_099;
    expect(store.claim('short', 100)).toBe(false);
    now = 1_100;
    expect(store.claim('short', 100)).toBe(true);
    expect(store.claim('long', 10_000)).toBe(false);
  });
});
