import { describe, expect, it } from 'vitest';
import { signatureDigest } from '../../src/webhooks/signature.js';
import { verifyWebhook, WebhookVerificationError, type VerifyOptions } from '../../src/webhooks/index.js';
import { BODY, SECRET, T } from './fixtures.js';

const hex = (timestamp: string | number = T, body: string | Uint8Array = BODY) => signatureDigest(SECRET, String(timestamp), body).toString('hex');

function refusal(options: Partial<VerifyOptions> & { signature?: string }): { reason: string; message: string; issues?: unknown } | 'verified' {
  const { signature, ...rest } = options;
  try {
    verifyWebhook({ body: BODY, headers: signature === undefined ? {} : { 'svc-signature': signature }, secret: SECRET, now: T, ...rest });
    return 'verified';
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    expect(error.name).toBe('WebhookVerificationError');
    return { reason: error.reason, message: error.message, ...(error.issues ? { issues: error.issues } : {}) };
  }
}

describe('verifyWebhook says exactly what is wrong', () => {
  it('takes a v1 only when it is whole hex digits, in pairs', () => {
    expect(refusal({ signature: `t=${T},v1=${hex()}` })).toBe('verified');
    for (const bad of [`zz${hex()}`, `${hex()}zz`, `${hex()}0`]) {
      expect(refusal({ signature: `t=${T},v1=${bad}` })).toEqual({ reason: 'malformed_signature', message: 'no v1 value is a hex digest' });
    }
    expect(refusal({ signature: `t=${T},v1=${hex().toUpperCase()}` })).toBe('verified');
    expect(refusal({ signature: `t=${T},v1=${'ab'.repeat(32)}` })).toEqual({ reason: 'bad_signature', message: 'no v1 signature matches this body and secret' });
  });

  it('names the header and the part of it that is missing or malformed', () => {
    expect(refusal({})).toEqual({ reason: 'missing_header', message: 'the svc-signature header is missing' });
    expect(refusal({ signature: '   ' })).toEqual({ reason: 'missing_header', message: 'the svc-signature header is missing' });
    for (const t of ['12abc', 'x12', '12345678901234567', '']) {
      expect(refusal({ signature: `t=${t},v1=${hex()}` })).toEqual({ reason: 'malformed_signature', message: 'svc-signature needs exactly one t=<unix time>' });
    }
    expect(refusal({ signature: `t=${T}` })).toEqual({ reason: 'malformed_signature', message: 'svc-signature has no v1 value' });
  });

  it('reads a timestamp of 10^12 as milliseconds, and one just under as seconds', () => {
    const ms = 1e12;
    expect(refusal({ signature: `t=${ms},v1=${hex(ms)}`, now: ms })).not.toEqual(expect.objectContaining({ reason: 'stale_timestamp' }));
    const seconds = 1e12 - 1;
    expect(refusal({ signature: `t=${seconds},v1=${hex(seconds)}`, now: seconds * 1000 })).not.toEqual(expect.objectContaining({ reason: 'stale_timestamp' }));
  });

  it('says how far off the signed time is, in seconds, and refuses a negative tolerance', () => {
    const signature = `t=${T},v1=${hex()}`;
    expect(refusal({ signature, now: T + 400_000 })).toEqual({ reason: 'stale_timestamp', message: 'the delivery was signed 400 s ago, more than the 300 s allowed' });
    expect(refusal({ signature, now: T - 400_000 })).toEqual({ reason: 'future_timestamp', message: 'the delivery was signed 400 s in the future, more than the 300 s allowed' });
    expect(refusal({ signature, now: T - 2_000, toleranceMs: 1_000 })).toEqual({ reason: 'future_timestamp', message: 'the delivery was signed 2 s in the future, more than the 1 s allowed' });
    expect(refusal({ signature, toleranceMs: 0 })).toBe('verified');
    expect(() => refusal({ signature, toleranceMs: -1 })).toThrow(new TypeError('toleranceMs must be a number of milliseconds, 0 or more'));
    expect(() => refusal({ signature, toleranceMs: Number.NaN })).toThrow(TypeError);
  });

  it('checks the unsigned timestamp header against the signed time, spaces trimmed', () => {
    const signature = `t=${T},v1=${hex()}`;
    const withStated = (stated: string) => refusal({ headers: { 'svc-signature': signature, 'svc-timestamp': stated } });
    expect(withStated(` ${T} `)).toBe('verified');
    expect(withStated(`${Math.floor(T / 1000)}`)).toBe('verified');
    expect(withStated(`${T + 1000}`)).toEqual({ reason: 'bad_signature', message: 'svc-timestamp does not match the signed timestamp' });
    expect(withStated(`${T}x`)).toEqual({ reason: 'bad_signature', message: 'svc-timestamp does not match the signed timestamp' });
    expect(withStated(`x${T}`)).toEqual({ reason: 'bad_signature', message: 'svc-timestamp does not match the signed timestamp' });
  });

  it('refuses parsed JSON as the body, and names the root of a payload that is not an object', () => {
    expect(() => verifyWebhook({ body: JSON.parse(BODY) as string, headers: {}, secret: SECRET })).toThrow(
      new TypeError('body must be the raw request body as a string or bytes, not parsed JSON'),
    );
    const body = '[1]';
    const result = refusal({ body, signature: `t=${T},v1=${hex(T, body)}` });
    expect(result).toMatchObject({ reason: 'invalid_payload', message: expect.stringMatching(/^the body is not a workflow\.execution\.completed event: \(root\): /) });
    const bytes = new TextEncoder().encode(BODY);
    expect(refusal({ body: bytes, signature: `t=${T},v1=${hex(T, bytes)}` })).toBe('verified');
  });
});
