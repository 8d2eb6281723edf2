/**
 * Webhooks Loops sends (contact, e-mail and campaign events), signed per Standard Webhooks:
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` (space-separated
 * `v1,<base64 HMAC-SHA256>` entries) over `<id>.<timestamp>.<raw body>`, keyed with the
 * base64-decoded part of a `whsec_<base64>` secret.
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { WebhookVerificationError } from './errors.js';
import { headerValue, type HeaderSource } from './header-source.js';
import type { WebhookBody } from './signature.js';
import { checkTimestamp, DEFAULT_TOLERANCE_MS, sameBytes } from './verify.js';
import { recordVerifiedLoops } from './verified-identity.js';

/** The 17 event names Loops documents (OpenAPI 1.21.6 `webhooks:`). Others are accepted as they come. */
export const LOOPS_WEBHOOK_EVENTS = [
  'contact.created',
  'contact.unsubscribed',
  'contact.deleted',
  'contact.mailingList.subscribed',
  'contact.mailingList.unsubscribed',
  'campaign.email.sent',
  'loop.email.sent',
  'transactional.email.sent',
  'email.delivered',
  'email.softBounced',
  'email.hardBounced',
  'email.opened',
  'email.clicked',
  'email.unsubscribed',
  'email.resubscribed',
  'email.spamReported',
  'testing.testEvent',
] as const;

export type LoopsWebhookEventName = (typeof LOOPS_WEBHOOK_EVENTS)[number];

const contactIdentity = z.looseObject({ id: z.string(), email: z.string().nullable().optional(), userId: z.string().nullable().optional() });
const mailingList = z.looseObject({ id: z.string(), name: z.string().optional(), description: z.string().nullable().optional(), isPublic: z.boolean().optional() });

/** A Loops webhook payload: the common fields, and each event's context objects where it has them. */
export const loopsWebhookEventSchema = z.looseObject({
  eventName: z.string().min(1),
  eventTime: z.number().describe('Unix time in seconds'),
  webhookSchemaVersion: z.string(),
  contactIdentity: contactIdentity.optional(),
  contact: z.looseObject({ id: z.string() }).optional(),
  email: z.looseObject({ id: z.string(), emailMessageId: z.string().optional(), subject: z.string().optional() }).optional(),
  mailingList: mailingList.optional(),
  mailingLists: z.array(mailingList).optional(),
  sourceType: z.enum(['campaign', 'loop', 'transactional']).optional(),
  campaignId: z.string().optional(),
  campaignName: z.string().optional(),
  loopId: z.string().optional(),
  loopName: z.string().optional(),
  transactionalId: z.string().optional(),
  transactionalName: z.string().optional(),
  message: z.string().optional(),
});

export type LoopsWebhookEvent = z.output<typeof loopsWebhookEventSchema> & { eventName: LoopsWebhookEventName | (string & {}) };

export interface LoopsVerifyOptions {
  /** The raw request body, exactly as received. */
  body: WebhookBody;
  headers: HeaderSource;
  /** The signing secret, `whsec_<base64>`; during a rotation, the old and the new one. */
  secret: string | readonly string[];
  /** How far `webhook-timestamp` may be from `now`, either way (default 5 minutes). `Infinity` turns the check off. */
  toleranceMs?: number;
  /** Unix time in milliseconds to check against; `Date.now()` by default. */
  now?: number;
}

export interface VerifiedLoopsWebhook {
  /** `webhook-id`: the same on every retry of one message, and signed; `WebhookDeduplicator` keys on it. */
  id: string;
  /** `webhook-timestamp`, in Unix seconds. */
  timestamp: number;
  event: LoopsWebhookEvent;
}

/** The HMAC key of a `whsec_<base64>` secret: the decoded bytes. */
export function loopsSecretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice(6) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 === 1) throw new TypeError('a Loops signing secret is whsec_ followed by base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new TypeError('a Loops signing secret is whsec_ followed by base64');
  return key;
}

function digest(key: Buffer, id: string, timestamp: string, body: WebhookBody): Buffer {
  return createHmac('sha256', key)
    .update(`${id}.${timestamp}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();
}

/** The three headers of a delivery signed with each secret (for tests, emulators and relays). */
export function signLoopsWebhook(options: { body: WebhookBody; secret: string | readonly string[]; id: string; timestamp?: number }): Record<string, string> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  const signatures = secrets.map((secret) => `v1,${digest(loopsSecretKey(secret), options.id, timestamp, options.body).toString('base64')}`);
  return { 'webhook-id': options.id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Verifies a Loops webhook on its raw body and returns its id, time and typed event: headers,
 * then the signature (any `v1` entry against any secret, in constant time), then the replay
 * window, then the payload. Throws `WebhookVerificationError` with a `reason`.
 */
export function verifyLoopsWebhook(options: LoopsVerifyOptions): VerifiedLoopsWebhook {
  if (typeof options.body !== 'string' && !(options.body instanceof Uint8Array)) {
    throw new TypeError('body must be the raw request body as a string or bytes, not parsed JSON');
  }
  const keys = (typeof options.secret === 'string' ? [options.secret] : options.secret).map(loopsSecretKey);
  if (keys.length === 0) throw new TypeError('give at least one signing secret');
  const id = headerValue(options.headers, 'webhook-id')?.trim();
  const timestamp = headerValue(options.headers, 'webhook-timestamp')?.trim();
  const signature = headerValue(options.headers, 'webhook-signature')?.trim();
  for (const [name, value] of [['webhook-id', id], ['webhook-timestamp', timestamp], ['webhook-signature', signature]] as const) {
    if (!value) throw new WebhookVerificationError('missing_header', `the ${name} header is missing`);
  }
  if (!/^\d{1,12}$/.test(timestamp!)) throw new WebhookVerificationError('malformed_signature', 'webhook-timestamp is not a Unix time in seconds');
  const given = signature!
    .split(/\s+/)
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === 'v1' && value !== undefined && BASE64.test(value))
    .map(([, value]) => Buffer.from(value!, 'base64'));
  if (given.length === 0) throw new WebhookVerificationError('malformed_signature', 'webhook-signature has no v1,<base64> entry');
  const expected = keys.map((key) => digest(key, id!, timestamp!, options.body));
  if (!expected.some((want) => given.some((got) => sameBytes(got, want)))) {
    throw new WebhookVerificationError('bad_signature', 'no v1 signature matches this body and secret');
  }
  checkTimestamp(Number(timestamp) * 1000, { toleranceMs: options.toleranceMs ?? DEFAULT_TOLERANCE_MS, now: options.now });
  let json: unknown;
  try {
    json = JSON.parse(typeof options.body === 'string' ? options.body : new TextDecoder('utf-8', { fatal: true }).decode(options.body));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is not JSON');
  }
  const parsed = loopsWebhookEventSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    throw new WebhookVerificationError('invalid_payload', `the body is not a Loops webhook event: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`, issues);
  }
  // Known to WebhookDeduplicator by its signed id: a replay inside the window is dropped there.
  return recordVerifiedLoops({ id: id!, timestamp: Number(timestamp), event: parsed.data as LoopsWebhookEvent });
}
