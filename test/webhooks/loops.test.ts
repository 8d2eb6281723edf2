/** Loops' outgoing webhooks: Standard Webhooks signatures, verified on the raw body, with typed events. */
import { describe, expect, it } from 'vitest';
import { LOOPS_WEBHOOK_EVENTS, signLoopsWebhook, verifyLoopsWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';

/** The Standard Webhooks specification's own example (standard-webhooks/standard-webhooks README). */
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const SECRET = `whsec_${Buffer.from('loops-test-signing-key-0123456789').toString('base64')}`;
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const EVENT = {
  eventName: 'email.delivered',
  eventTime: NOW / 1000,
  webhookSchemaVersion: '1.0.0',
  sourceType: 'transactional',
  transactionalId: 'tx_welcome',
  transactionalName: 'Welcome',
  contactIdentity: { id: 'cnt_1', email: 'ada@example.com', userId: null },
  email: { id: 'em_1', emailMessageId: 'emm_1', subject: 'Welcome' },
};

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('signLoopsWebhook', () => {
  it('matches the Standard Webhooks example signature', () => {
    expect(signLoopsWebhook({ body: SPEC.body, secret: SPEC.secret, id: SPEC.id, timestamp: SPEC.timestamp })).toEqual({
      'webhook-id': SPEC.id,
      'webhook-timestamp': String(SPEC.timestamp),
      'webhook-signature': SPEC.signature,
    });
  });
});

describe('verifyLoopsWebhook', () => {
  const body = JSON.stringify(EVENT);
  const headers = signLoopsWebhook({ body, secret: SECRET, id: 'msg_1', timestamp: NOW / 1000 });

  it('verifies the spec example on its raw body and types the event', () => {
    const headersOfSpec = { 'webhook-id': SPEC.id, 'webhook-timestamp': String(SPEC.timestamp), 'webhook-signature': SPEC.signature };
    expect(reason(() => verifyLoopsWebhook({ body: SPEC.body, headers: headersOfSpec, secret: SPEC.secret, now: SPEC.timestamp * 1000 }))).toBe('invalid_payload');
    const verified = verifyLoopsWebhook({ body: Buffer.from(body), headers: new Headers(headers), secret: SECRET, now: NOW });
    expect(verified).toEqual({ id: 'msg_1', timestamp: NOW / 1000, event: EVENT });
    expect(LOOPS_WEBHOOK_EVENTS).toContain(verified.event.eventName);
  });

  it('accepts any v1 entry against any secret (rotation on both sides)', () => {
    const old = `whsec_${Buffer.from('old-key').toString('base64')}`;
    const both = signLoopsWebhook({ body, secret: [old, SECRET], id: 'msg_1', timestamp: NOW / 1000 });
    expect(both['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyLoopsWebhook({ body, headers: both, secret: SECRET, now: NOW }).id).toBe('msg_1');
    expect(verifyLoopsWebhook({ body, headers, secret: [old, SECRET], now: NOW }).id).toBe('msg_1');
    const noisy = { ...headers, 'webhook-signature': `v2,abc v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` };
    expect(verifyLoopsWebhook({ body, headers: noisy, secret: SECRET, now: NOW }).id).toBe('msg_1');
  });

  it.each([
    ['a changed body', { body: body.replace('Welcome', 'Welcomf') }, 'bad_signature'],
    ['another secret', { secret: `whsec_${Buffer.from('other').toString('base64')}` }, 'bad_signature'],
    ['a changed id', { headers: { ...headers, 'webhook-id': 'msg_2' } }, 'bad_signature'],
    ['a changed timestamp', { headers: { ...headers, 'webhook-timestamp': String(NOW / 1000 + 1) } }, 'bad_signature'],
    ['no signature header', { headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW / 1000) } }, 'missing_header'],
    ['no id header', { headers: { 'webhook-timestamp': headers['webhook-timestamp'], 'webhook-signature': headers['webhook-signature'] } }, 'missing_header'],
    ['a timestamp in milliseconds', { headers: { ...headers, 'webhook-timestamp': String(NOW) } }, 'malformed_signature'],
    ['only other versions', { headers: { ...headers, 'webhook-signature': headers['webhook-signature']!.replace('v1,', 'v2,') } }, 'malformed_signature'],
    ['a signature six minutes old', { now: NOW + 6 * 60_000 }, 'stale_timestamp'],
    ['a signature six minutes ahead', { now: NOW - 6 * 60_000 }, 'future_timestamp'],
  ] as const)('refuses %s', (_, change, expected) => {
    expect(reason(() => verifyLoopsWebhook({ body, headers, secret: SECRET, now: NOW, ...change }))).toBe(expected);
  });

  it('takes a wider window when asked, and refuses a payload that is not an event', () => {
    expect(verifyLoopsWebhook({ body, headers, secret: SECRET, now: NOW + 6 * 60_000, toleranceMs: 10 * 60_000 }).id).toBe('msg_1');
    const notEvent = '{"eventName":"contact.created"}';
    const signed = signLoopsWebhook({ body: notEvent, secret: SECRET, id: 'msg_3', timestamp: NOW / 1000 });
    expect(reason(() => verifyLoopsWebhook({ body: notEvent, headers: signed, secret: SECRET, now: NOW }))).toBe('invalid_payload');
  });

  it('refuses a secret that is not whsec_<base64>, and parsed JSON for a body', () => {
    expect(() => verifyLoopsWebhook({ body, headers, secret: 'whsec_not base64!', now: NOW })).toThrow(TypeError);
    expect(() => verifyLoopsWebhook({ body: EVENT as never, headers, secret: SECRET, now: NOW })).toThrow(TypeError);
  });
});
