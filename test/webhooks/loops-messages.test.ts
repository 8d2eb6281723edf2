import { describe, expect, it } from 'vitest';
import { loopsSecretKey, signLoopsWebhook, verifyLoopsWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';

/**
 * Loops webhook verification, refusal by refusal: the exact reason and message a receiver
 * logs, the header forms a proxy may deliver, and bodies as bytes.
 */
const SECRET = `whsec_${Buffer.from('loops+key/with=chars:é').toString('base64')}`;
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const T = NOW / 1000;
const EVENT = {
  eventName: 'email.delivered',
  eventTime: T,
  webhookSchemaVersion: '1.0.0',
  sourceType: 'transactional',
  transactionalId: 'tx_welcome',
  transactionalName: 'Welcome',
  contactIdentity: { id: 'cnt_1', email: 'ada@example.com', userId: null },
  email: { id: 'em_1', emailMessageId: 'emm_1', subject: 'Welcome ✓' },
};
const BODY = JSON.stringify(EVENT);

function refusal(fn: () => unknown): { reason: string; message: string } | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return { reason: error.reason, message: error.message };
    throw error;
  }
  return undefined;
}

const verify = (headers: Record<string, string | string[] | undefined>, body: string | Uint8Array = BODY, secret: string | string[] = SECRET) =>
  verifyLoopsWebhook({ body, headers, secret, now: NOW });
const signed = (body: string | Uint8Array = BODY) => signLoopsWebhook({ body, secret: SECRET, id: 'msg_1', timestamp: T });

describe('verifyLoopsWebhook, refusal by refusal', () => {
  it('names each missing header, empty or blank counting as missing', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      for (const value of [undefined, '', '   ']) {
        const headers: Record<string, string | undefined> = { ...signed(), [name]: value };
        expect(refusal(() => verify(headers)), `${name}=${JSON.stringify(value)}`).toEqual({ reason: 'missing_header', message: `the ${name} header is missing` });
      }
    }
  });

  it('reads headers given with other cases, as arrays, and with white space around them', () => {
    const h = signed();
    const headers = { 'Webhook-Id': ` ${h['webhook-id']} `, 'WEBHOOK-TIMESTAMP': [`${h['webhook-timestamp']}\t`], 'webhook-signature': `  ${h['webhook-signature']}  ` };
    expect(verify(headers)).toMatchObject({ id: 'msg_1', timestamp: T });
  });

  it('refuses a timestamp that is not whole seconds', () => {
    for (const timestamp of ['1.5', '-5', 'soon', '1e9', String(NOW)  + '0']) {
      expect(refusal(() => verify({ ...signed(), 'webhook-timestamp': timestamp })), timestamp).toEqual({
        reason: 'malformed_signature',
        message: 'webhook-timestamp is not a Unix time in seconds',
      });
    }
  });

  it('finds the v1 entry among others separated by any white space, and refuses a list without one', () => {
    const good = signed()['webhook-signature']!;
    expect(verify({ ...signed(), 'webhook-signature': `v2,abc=\t ${good}` })).toMatchObject({ id: 'msg_1' });
    expect(verify({ ...signed(), 'webhook-signature': `v1,Zm9v\n${good}` })).toMatchObject({ id: 'msg_1' });
    for (const signature of ['v2,' + good.slice(3), 'v1', 'v1,!!!=', good.replace('v1,', 'v1 ')]) {
      expect(refusal(() => verify({ ...signed(), 'webhook-signature': signature })), signature).toEqual({
        reason: 'malformed_signature',
        message: 'webhook-signature has no v1,<base64> entry',
      });
    }
    expect(refusal(() => verify({ ...signed(), 'webhook-signature': 'v1,Zm9vYmFy' }))).toEqual({ reason: 'bad_signature', message: 'no v1 signature matches this body and secret' });
  });

  it('verifies a body given as bytes exactly as the same text', () => {
    const bytes = new TextEncoder().encode(BODY);
    expect(verify(signed(bytes), bytes)).toMatchObject({ id: 'msg_1', event: { eventName: 'email.delivered' } });
    expect(verify(signed(BODY), bytes)).toMatchObject({ id: 'msg_1' });
    expect(verify(signed(bytes), BODY)).toMatchObject({ id: 'msg_1' });
  });

  it('refuses a signed body that is not JSON, or not UTF-8, or not an event, naming the fields', () => {
    expect(refusal(() => verify(signed('not json'), 'not json'))).toEqual({ reason: 'invalid_payload', message: 'the body is not JSON' });
    const latin1 = Uint8Array.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]);
    expect(refusal(() => verify(signed(latin1), latin1))).toEqual({ reason: 'invalid_payload', message: 'the body is not JSON' });
    const notEvent = JSON.stringify({ ...EVENT, eventName: 42 });
    const refused = refusal(() => verify(signed(notEvent), notEvent));
    expect(refused?.reason).toBe('invalid_payload');
    expect(refused?.message).toMatch(/^the body is not a Loops webhook event: eventName: /);
    const array = '[1]';
    expect(refusal(() => verify(signed(array), array))?.message).toMatch(/^the body is not a Loops webhook event: \(root\): /);
    try {
      verify(signed(notEvent), notEvent);
    } catch (error) {
      expect((error as WebhookVerificationError & { issues?: unknown }).issues).toEqual([{ path: 'eventName', message: expect.any(String) }]);
    }
  });

  it('refuses no secret at all, and a body that is not raw, before reading anything', () => {
    expect(() => verify(signed(), BODY, [])).toThrow(new TypeError('give at least one signing secret'));
    expect(() => verifyLoopsWebhook({ body: EVENT as unknown as string, headers: signed(), secret: SECRET, now: NOW })).toThrow(
      new TypeError('body must be the raw request body as a string or bytes, not parsed JSON'),
    );
  });
});

describe('loopsSecretKey', () => {
  it('decodes whsec_<base64>, or bare base64, to the key bytes', () => {
    expect(loopsSecretKey(SECRET).toString()).toBe('loops+key/with=chars:é');
    expect(loopsSecretKey(SECRET.slice(6)).toString()).toBe('loops+key/with=chars:é');
    expect(loopsSecretKey('whsec_Zm9vYg==').toString()).toBe('foob');
  });

  it('refuses what is not base64, of an impossible length, or empty', () => {
    for (const secret of ['whsec_', 'whsec_not base64', 'whsec_Zm9vY', 'whsec_Zm9v=Yg', 'whsec_====', 'Zm9vYg===', 'whsec_Zm9vYg== ']) {
      expect(() => loopsSecretKey(secret), secret).toThrow(new TypeError('a Loops signing secret is whsec_ followed by base64'));
    }
  });

  it('signs with the current time when none is given', () => {
    const before = Math.floor(Date.now() / 1000);
    const headers = signLoopsWebhook({ body: BODY, secret: SECRET, id: 'msg_now' });
    const after = Math.floor(Date.now() / 1000);
    expect(Number(headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(Number(headers['webhook-timestamp'])).toBeLessThanOrEqual(after);
  });
});
