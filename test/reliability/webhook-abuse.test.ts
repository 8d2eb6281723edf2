/**
 * Webhook abuse: 10 MB bodies, odd header spacing, several signatures, timestamps that are
 * not numbers, and replays. Every case ends in an event or a `WebhookVerificationError` with
 * the expected reason, never another throw, and the secret never appears in an error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookDeduplicator, WebhookVerificationError } from '../../src/webhooks/index.js';
import { EVENT, T } from '../webhooks/fixtures.js';
import { canary, leaks } from './canary.js';
import { tally } from './tally.js';

const SECRET = canary('whsec');
const OTHER = canary('whsec');
const family = tally('Webhook abuse', 'delivery');
afterAll(() => family.save('webhook-abuse'));

interface Case {
  name: string;
  body: string | Uint8Array;
  headers: Record<string, string | string[]>;
  now?: number;
  /** `ok`, or the reason the delivery must be refused with. */
  want: 'ok' | string;
}

const body = JSON.stringify(EVENT);
const signed = signWebhook(body, SECRET, { timestamp: T, deliveryId: 'dlv_1' });
const sig = signed.signature;
const v1 = sig.split('v1=')[1]!;
const wrongV1 = signWebhook(body, OTHER, { timestamp: T }).signature.split('v1=')[1]!;

// A 10 MB event: the final output carries the bulk, so the payload is still a valid event.
const big = JSON.stringify({ ...EVENT, data: { ...EVENT.data, finalOutput: { blob: 'x'.repeat(10 * 1024 * 1024) } } });
const bigSigned = signWebhook(big, SECRET, { timestamp: T });
const bigBytes = Buffer.from(big);
const flipped = Buffer.from(bigBytes);
flipped[flipped.length - 100] = 'y'.charCodeAt(0);

const h = (signature: string | string[], extra: Record<string, string> = {}) => ({ 'svc-signature': signature, ...extra });

const CASES: Case[] = [
  // Bodies of 10 MB.
  { name: '10 MB body, signed', body: big, headers: h(bigSigned.signature), want: 'ok' },
  { name: '10 MB body as bytes, signed', body: bigBytes, headers: h(bigSigned.signature), want: 'ok' },
  { name: '10 MB body, one byte changed', body: flipped, headers: h(bigSigned.signature), want: 'bad_signature' },
  { name: '10 MB body, signature of another body', body: big, headers: h(sig), want: 'bad_signature' },
  { name: '10 MB of garbage, unsigned', body: Buffer.alloc(10 * 1024 * 1024, 0x7b), headers: h(`t=${T},v1=${'0'.repeat(64)}`), want: 'bad_signature' },
  // Odd spacing and case.
  { name: 'spaces around pairs', body, headers: h(` t=${T} , v1=${v1} `), want: 'ok' },
  { name: 'spaces around =', body, headers: h(`t = ${T},v1 = ${v1}`), want: 'ok' },
  { name: 'tabs', body, headers: h(`\tt=${T},\tv1=${v1}\t`), want: 'ok' },
  { name: 'header name in capitals', body, headers: { 'SVC-Signature': sig }, want: 'ok' },
  { name: 'empty pairs between commas', body, headers: h(`t=${T},,,v1=${v1},`), want: 'ok' },
  { name: 'only spaces', body, headers: h('   '), want: 'missing_header' },
  { name: 'no header', body, headers: {}, want: 'missing_header' },
  { name: 'upper-case hex', body, headers: h(`t=${T},v1=${v1.toUpperCase()}`), want: 'ok' },
  // Several signatures.
  { name: 'a wrong v1 before the right one', body, headers: h(`t=${T},v1=${wrongV1},v1=${v1}`), want: 'ok' },
  { name: 'two wrong v1', body, headers: h(`t=${T},v1=${wrongV1},v1=${'ab'.repeat(32)}`), want: 'bad_signature' },
  { name: 'an unknown scheme and a right v1', body, headers: h(`t=${T},v0=${wrongV1},v1=${v1}`), want: 'ok' },
  { name: 'only an unknown scheme', body, headers: h(`t=${T},v2=${v1}`), want: 'malformed_signature' },
  { name: 'two signature headers (two t)', body, headers: h([sig, sig]), want: 'malformed_signature' },
  { name: 'two t in one header', body, headers: h(`t=${T},t=${T},v1=${v1}`), want: 'malformed_signature' },
  { name: 'v1 not hex', body, headers: h(`t=${T},v1=zz${v1.slice(2)}`), want: 'malformed_signature' },
  { name: 'v1 truncated', body, headers: h(`t=${T},v1=${v1.slice(0, 32)}`), want: 'bad_signature' },
  { name: 'v1 empty', body, headers: h(`t=${T},v1=`), want: 'malformed_signature' },
  { name: 'a thousand wrong v1', body, headers: h(`t=${T},${Array.from({ length: 1000 }, () => `v1=${wrongV1}`).join(',')}`), want: 'bad_signature' },
  // Timestamps that are not numbers.
  ...['abc', '', '1e12', '0x10', '-5', '12.5', 'NaN', 'Infinity', ' ', `${T}abc`, '１２３', '9'.repeat(17)].map(
    (t): Case => ({ name: `t=${JSON.stringify(t)}`, body, headers: h(`t=${t},v1=${v1}`), want: 'malformed_signature' }),
  ),
  { name: 'no t at all', body, headers: h(`v1=${v1}`), want: 'malformed_signature' },
  { name: 'timestamp header not a number', body, headers: h(sig, { 'svc-timestamp': 'yesterday' }), want: 'bad_signature' },
  { name: 'timestamp header disagrees', body, headers: h(sig, { 'svc-timestamp': String(T + 1000) }), want: 'bad_signature' },
  // Replays outside the window are refused by time; inside it, by the deduplicator (below).
  { name: 'replayed 6 minutes later', body, headers: h(sig), now: T + 6 * 60_000, want: 'stale_timestamp' },
  { name: 'replayed a day later', body, headers: h(sig), now: T + 86_400_000, want: 'stale_timestamp' },
  { name: 'signed 6 minutes in the future', body, headers: h(sig), now: T - 6 * 60_000, want: 'future_timestamp' },
  { name: 'replayed 4 minutes later (in the window)', body, headers: h(sig), now: T + 4 * 60_000, want: 'ok' },
];

function outcome(c: Case): string {
  try {
    verifyWebhook({ body: c.body, headers: c.headers, secret: SECRET, now: c.now ?? T });
    return 'ok';
  } catch (error) {
    if (leaks(error, [SECRET, OTHER]).length) return 'leaked the secret';
    return error instanceof WebhookVerificationError ? error.reason : `threw ${String(error)}`;
  }
}

describe('webhook abuse', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const started = performance.now();
    const got = outcome(c);
    family.record(got === c.want);
    expect(got).toBe(c.want);
    // Even 10 MB verifies well inside a receiver's time limit.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('replays inside the window: 100 copies of one delivery, only the first is processed', async () => {
    const dedupe = new WebhookDeduplicator();
    const event = verifyWebhook({ body, headers: signed.headers, secret: SECRET, now: T });
    // The same delivery id, and a resend under a new delivery id for the same execution.
    const copies = Array.from({ length: 100 }, (_, i) => (i % 2 ? signed.headers : { ...signed.headers, 'svc-delivery-id': `dlv_other_${i}` }));
    const first = await dedupe.claim(copies[0]!, event);
    // The replays arrive together, as a sender's retries after a time-out do.
    const replays = await Promise.all(copies.slice(1).map((headers) => dedupe.claim(headers, event)));
    const claims = [first, ...replays];
    for (const [i, claimed] of claims.entries()) family.record(claimed === (i === 0));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(first).toBe(true);
  });
});
