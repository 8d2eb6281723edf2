import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deliveryHeaders,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyOptions,
  type WebhookFailureReason,
} from '../../src/webhooks/index.js';
import { BODY, EVENT, OTHER_SECRET, SECRET, T } from './fixtures.js';

function failureOf(options: VerifyOptions): WebhookVerificationError {
  try {
    verifyWebhook(options);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('verification passed');
}

function expectReason(options: VerifyOptions, reason: WebhookFailureReason): WebhookVerificationError {
  const error = failureOf(options);
  expect(error.reason).toBe(reason);
  // `.code` as tool errors have it, the same value.
  expect(error.code).toBe(reason);
  // Neither secret nor any digest ever leaks into the message.
  for (const secret of [SECRET, OTHER_SECRET]) expect(error.message).not.toContain(secret);
  expect(error.message).not.toMatch(/[0-9a-f]{64}/);
  return error;
}

const signed = (body: string | Uint8Array = BODY, secret: string | string[] = SECRET, timestamp = T) =>
  signWebhook(body, secret, { timestamp, deliveryId: 'dlv_1' });

describe('signWebhook', () => {
  it('signs "<timestamp>.<body>" with HMAC-SHA256 as hex, and returns every header of a delivery', () => {
    const { signature, headers, deliveryId, timestamp } = signed();
    const hex = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signature).toBe(`t=${T},v1=${hex}`);
    expect({ deliveryId, timestamp }).toEqual({ deliveryId: 'dlv_1', timestamp: T });
    expect(headers).toEqual({
      'svc-event': 'workflow.execution.completed',
      'svc-timestamp': String(T),
      'svc-delivery-id': 'dlv_1',
      'svc-signature': signature,
      'Idempotency-Key': 'dlv_1',
    });
  });

  it('makes a delivery id and uses the current time when none are given', () => {
    const before = Date.now();
    const { deliveryId, timestamp, headers } = signWebhook(BODY, SECRET);
    expect(deliveryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(headers['Idempotency-Key']).toBe(deliveryId);
  });

  it('carries one v1 per secret while a secret is rotated', () => {
    const { signature } = signed(BODY, [SECRET, OTHER_SECRET]);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  });

  it('builds unsigned headers when no secret is configured, and refuses an empty secret', () => {
    expect(deliveryHeaders({ body: BODY, deliveryId: 'dlv_1', timestamp: T })).toEqual({
      'svc-event': 'workflow.execution.completed',
      'svc-timestamp': String(T),
      'svc-delivery-id': 'dlv_1',
      'Idempotency-Key': 'dlv_1',
    });
    expect(() => signWebhook(BODY, '')).toThrow(TypeError);
    expect(() => signWebhook(BODY, [])).toThrow(TypeError);
    expect(() => deliveryHeaders({ body: BODY, deliveryId: 'd', timestamp: 1.5 })).toThrow(/whole milliseconds/);
  });
});

describe('verifyWebhook', () => {
  it('round trip: returns the typed event of a genuine delivery', () => {
    const { headers } = signed();
    const event = verifyWebhook({ body: BODY, headers, secret: SECRET, now: T + 1_000 });
    expect(event).toEqual(EVENT);
    expect(event.data.executionId).toBe('exec_7');
    expect(event.links?.log).toBe('/v1/logs/log_7');
  });

  it('takes the body as bytes and Node-style headers (any case, repeated values)', () => {
    const { headers } = signed();
    const nodeHeaders = {
      'SVC-Signature': [headers['svc-signature']!],
      'svc-timestamp': headers['svc-timestamp'],
      'content-type': 'application/json',
    };
    expect(verifyWebhook({ body: Buffer.from(BODY), headers: nodeHeaders, secret: SECRET, now: T })).toEqual(EVENT);
  });

  it('takes fetch Headers', () => {
    const { headers } = signed();
    expect(verifyWebhook({ body: BODY, headers: new Headers(headers), secret: SECRET, now: T })).toEqual(EVENT);
  });

  it('refuses a tampered body', () => {
    const { headers } = signed();
    const tampered = BODY.replace('"status":"success"', '"status":"error"');
    expect(tampered).not.toBe(BODY);
    expectReason({ body: tampered, headers, secret: SECRET, now: T }, 'bad_signature');
  });

  it('refuses a body that was parsed and serialized again', () => {
    const { headers } = signed();
    const reserialized = JSON.stringify(JSON.parse(BODY));
    expect(reserialized).not.toBe(BODY);
    expectReason({ body: reserialized, headers, secret: SECRET, now: T }, 'bad_signature');
    expect(() => verifyWebhook({ body: JSON.parse(BODY) as string, headers, secret: SECRET, now: T })).toThrow(TypeError);
  });

  it('refuses the wrong secret', () => {
    const { headers } = signed();
    expectReason({ body: BODY, headers, secret: OTHER_SECRET, now: T }, 'bad_signature');
  });

  it('accepts either signature of a rotation, and either secret on the receiving side', () => {
    const both = signed(BODY, [SECRET, OTHER_SECRET]).headers;
    expect(verifyWebhook({ body: BODY, headers: both, secret: SECRET, now: T }).id).toBe('evt_exec_7');
    expect(verifyWebhook({ body: BODY, headers: both, secret: OTHER_SECRET, now: T }).id).toBe('evt_exec_7');
    // The receiver rolled first: it holds both secrets while the sender still signs with the old one.
    const oldOnly = signed(BODY, SECRET).headers;
    expect(verifyWebhook({ body: BODY, headers: oldOnly, secret: [OTHER_SECRET, SECRET], now: T }).id).toBe('evt_exec_7');
    expectReason({ body: BODY, headers: both, secret: 'whsec-retired-0000', now: T }, 'bad_signature');
  });

  it('ignores other schemes and malformed v1 values beside a good one', () => {
    const { headers } = signed();
    const sig = headers['svc-signature']!.replace(',v1=', ',v0=abc,v1=zz-not-hex,v1=');
    expect(verifyWebhook({ body: BODY, headers: { ...headers, 'svc-signature': sig }, secret: SECRET, now: T }).id).toBe('evt_exec_7');
    // A v1 of the wrong length is compared by its bytes without throwing.
    const short = `t=${T},v1=abcd`;
    expectReason({ body: BODY, headers: { 'svc-signature': short }, secret: SECRET, now: T }, 'bad_signature');
  });

  it('refuses a stale delivery, and accepts one just inside five minutes', () => {
    const { headers } = signed();
    expect(verifyWebhook({ body: BODY, headers, secret: SECRET, now: T + 300_000 }).id).toBe('evt_exec_7');
    const error = expectReason({ body: BODY, headers, secret: SECRET, now: T + 300_001 }, 'stale_timestamp');
    expect(error.message).toContain('300 s allowed');
    expectReason({ body: BODY, headers, secret: SECRET, now: T + 60_000, toleranceMs: 30_000 }, 'stale_timestamp');
    expect(verifyWebhook({ body: BODY, headers, secret: SECRET, now: T + 86_400_000, toleranceMs: Infinity }).id).toBe('evt_exec_7');
  });

  it('refuses a delivery signed too far in the future', () => {
    const { headers } = signed();
    expect(verifyWebhook({ body: BODY, headers, secret: SECRET, now: T - 300_000 }).id).toBe('evt_exec_7');
    expectReason({ body: BODY, headers, secret: SECRET, now: T - 300_001 }, 'future_timestamp');
  });

  it('tells a timestamp in seconds from one in milliseconds', () => {
    const seconds = Math.floor(T / 1000);
    const { headers } = signed(BODY, SECRET, seconds);
    expect(headers['svc-timestamp']).toBe(String(seconds));
    // Read as milliseconds it would be from January 1970, and stale by decades.
    expect(verifyWebhook({ body: BODY, headers, secret: SECRET, now: T + 2_000 }).id).toBe('evt_exec_7');
    expectReason({ body: BODY, headers, secret: SECRET, now: T + 400_000 }, 'stale_timestamp');
    // Milliseconds a minute off are a minute off, not sixteen hours.
    const ms = signed(BODY, SECRET, T - 60_000).headers;
    expect(verifyWebhook({ body: BODY, headers: ms, secret: SECRET, now: T }).id).toBe('evt_exec_7');
  });

  it('refuses a timestamp header that disagrees with the signed time', () => {
    const { headers } = signed();
    expectReason({ body: BODY, headers: { ...headers, 'svc-timestamp': String(T + 120_000) }, secret: SECRET, now: T }, 'bad_signature');
    expectReason({ body: BODY, headers: { ...headers, 'svc-timestamp': 'soon' }, secret: SECRET, now: T }, 'bad_signature');
  });

  it('names a missing or malformed signature header', () => {
    const { headers } = signed();
    const { 'svc-signature': sig, ...unsigned } = headers;
    expectReason({ body: BODY, headers: unsigned, secret: SECRET, now: T }, 'missing_header');
    const v1 = sig!.split(',')[1]!;
    for (const bad of [v1, `t=${T}`, `t=abc,${v1}`, `t=${T},t=${T},${v1}`, `t=${T},v1=not-hex`, 'garbage']) {
      expectReason({ body: BODY, headers: { 'svc-signature': bad }, secret: SECRET, now: T }, 'malformed_signature');
    }
  });

  it('reads another header prefix when told to', () => {
    const { headers } = signWebhook(BODY, SECRET, { timestamp: T, prefix: 'sim' });
    expect(Object.keys(headers)).toEqual(['sim-event', 'sim-timestamp', 'sim-delivery-id', 'sim-signature', 'Idempotency-Key']);
    expect(verifyWebhook({ body: BODY, headers, secret: SECRET, now: T, prefix: 'sim' }).id).toBe('evt_exec_7');
    expectReason({ body: BODY, headers, secret: SECRET, now: T }, 'missing_header');
  });

  it('refuses a genuine delivery whose body is not JSON', () => {
    for (const body of ['not json', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
      const { headers } = signed(body);
      const error = expectReason({ body, headers, secret: SECRET, now: T }, 'invalid_payload');
      expect(error.message).toBe('the body is not JSON');
    }
  });

  it('refuses JSON that is not the spec event, listing what is wrong', () => {
    const wrong = JSON.stringify({ ...EVENT, type: 'workflow.execution.started', data: { ...EVENT.data, level: 'warn' }, links: { log: 'https://elsewhere/x' } });
    const { headers } = signed(wrong);
    const error = expectReason({ body: wrong, headers, secret: SECRET, now: T }, 'invalid_payload');
    expect(error.issues!.map((i) => i.path).sort()).toEqual(['data.level', 'links.execution', 'links.log', 'type']);
  });

  it('accepts an event without links, as a real deployment sends it', () => {
    const { links: _links, ...noLinks } = EVENT;
    const body = JSON.stringify(noLinks);
    const { headers } = signed(body);
    const event = verifyWebhook({ body, headers, secret: SECRET, now: T });
    expect(event.links).toBeUndefined();
    expect(event.data.executionId).toBe(EVENT.data.executionId);
  });

  it('keeps fields a sender adds beyond the spec', () => {
    const body = JSON.stringify({ ...EVENT, data: { ...EVENT.data, workflowName: 'Orders sync' } });
    const { headers } = signed(body);
    expect(verifyWebhook({ body, headers, secret: SECRET, now: T }).data).toMatchObject({ workflowName: 'Orders sync' });
  });
});
