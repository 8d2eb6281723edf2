import { describe, expect, it } from 'vitest';
import { parseSignature, secretList, signatureDigest } from '../../src/webhooks/signature.js';
import { verifyWebhook, WebhookVerificationError, type WebhookFailureReason } from '../../src/webhooks/index.js';
import { BODY, SECRET, T } from './fixtures.js';

const digest = (secret = SECRET, body = BODY) => signatureDigest(secret, String(T), body).toString('hex');

function reasonOf(signature: string): WebhookFailureReason | 'verified' {
  try {
    verifyWebhook({ body: BODY, headers: { 'svc-signature': signature }, secret: SECRET, now: T });
    return 'verified';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

/**
 * Only `v1` is a signature. A `v0` (or any other scheme) carrying the right digest, as valid
 * hex, is still not one: the old test's `v0=abc` was dropped for not being hex at all.
 */
describe('signature schemes other than v1', () => {
  it('the digest used below is the genuine one: as v1 it verifies', () => {
    expect(reasonOf(`t=${T},v1=${digest()}`)).toBe('verified');
  });

  it.each(['v0', 'v2', 'V1', 'v1 x', 'sha256'])('refuses the genuine digest sent as %s alone', (scheme) => {
    expect(reasonOf(`t=${T},${scheme}=${digest()}`)).toBe('malformed_signature');
  });

  it('refuses a genuine v0 beside a wrong v1', () => {
    expect(reasonOf(`t=${T},v0=${digest()},v1=${digest('whsec-other')}`)).toBe('bad_signature');
  });

  it('parseSignature keeps v1 values only, trimmed and in order, and flags a repeated t', () => {
    expect(parseSignature(` t = 12 , v0=aa, v1 = bb ,x, v1=cc,v2=dd`)).toEqual({ timestamp: '12', v1: ['bb', 'cc'], repeatedTimestamp: false });
    expect(parseSignature('t=1,t=2,v1=a=b')).toEqual({ timestamp: '2', v1: ['a=b'], repeatedTimestamp: true });
    expect(parseSignature('')).toEqual({ v1: [], repeatedTimestamp: false });
  });

  it('secretList takes one secret or a list of them, and refuses an empty one anywhere', () => {
    expect(secretList('a')).toEqual(['a']);
    expect(secretList(['a', 'b'])).toEqual(['a', 'b']);
    const message = 'a webhook secret must be a non-empty string (or a non-empty list of them)';
    for (const bad of [[], '', ['a', ''], ['', 'a'], [1 as unknown as string]]) expect(() => secretList(bad)).toThrow(new TypeError(message));
  });
});
