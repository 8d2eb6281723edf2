import { createHmac } from 'node:crypto';

export type WebhookBody = string | Uint8Array;

/** HMAC-SHA256 keyed with the secret as UTF-8 text, over `<timestamp>.<raw body bytes>`. */
export function signatureDigest(secret: string, timestamp: string, body: WebhookBody): Buffer {
  const key = Buffer.from(secret, 'utf8');
  const mac = createHmac('sha256', key);
  mac.update(`${timestamp}.`);
  mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  return mac.digest();
}

/** `t=<timestamp>,v1=<hex>[,v1=<hex>…]`: one `v1` per secret, so a receiver on either side of a rotation accepts it. */
export function formatSignature(timestamp: string, body: WebhookBody, secrets: readonly string[]): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signatureDigest(secret, timestamp, body).toString('hex')}`)].join(',');
}

export interface ParsedSignature {
  timestamp?: string;
  /** Every `v1` value, in order; other schemes are ignored. */
  v1: string[];
  /** More than one `t` was sent. */
  repeatedTimestamp: boolean;
}

/** Comma-separated `key=value` pairs, as Stripe-style headers are read. */
export function parseSignature(header: string): ParsedSignature {
  const parsed: ParsedSignature = { v1: [], repeatedTimestamp: false };
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    // Stryker disable next-line EqualityOperator: a part starting with '=' has the empty key, which no branch below takes
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (parsed.timestamp !== undefined) parsed.repeatedTimestamp = true;
      parsed.timestamp = value;
    } else if (key === 'v1') {
      parsed.v1.push(value);
    }
  }
  return parsed;
}

/** Secrets as a non-empty list; an empty secret would sign with a key anyone knows. */
export function secretList(secret: string | readonly string[]): string[] {
  const list = typeof secret === 'string' ? [secret] : [...secret];
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('a webhook secret must be a non-empty string (or a non-empty list of them)');
  }
  return list;
}
