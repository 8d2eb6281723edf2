import { dictionaryOf } from '../dictionary.js';
import { gzip } from './gzip.js';
import { jsonText } from './json-text.js';
import type { HttpRequestSpec, Query, QueryValue, RequestBody } from '../types.js';

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * The form encoding of each ASCII character: itself for letters, digits and `*-._`, `+` for
 * a space, `%XX` for the rest (what `URLSearchParams` writes).
 */
const FORM_ASCII: readonly string[] = Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return /[\w.*-]/.test(ch) ? ch : c === 0x20 ? '+' : `%${c.toString(16).toUpperCase().padStart(2, '0')}`;
});

/**
 * One key or value as `URLSearchParams` writes it (the WHATWG form encoding: space as `+`,
 * all but ASCII letters, digits and `*-._` percent-encoded as UTF-8, a lone surrogate as
 * U+FFFD). ASCII by a table; the rest of a text from its first non-ASCII character through
 * `URLSearchParams` itself: one `URLSearchParams` per call was a large share of a small query
 * call; a test compares the two over every character class.
 */
export function formEncode(text: string): string {
  let out = '';
  let plainFrom = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Stryker disable next-line ConditionalExpression: a fast path; URLSearchParams writes ASCII the same way
    if (c >= 0x80) return out + text.slice(plainFrom, i) + new URLSearchParams({ x: text.slice(i) }).toString().slice(2);
    const encoded = FORM_ASCII[c]!;
    // Stryker disable next-line ConditionalExpression: a fast path; a character that stays itself is appended as itself
    if (encoded.length === 1 && c !== 0x20) continue;
    out += text.slice(plainFrom, i) + encoded;
    plainFrom = i + 1;
  }
  // Stryker disable next-line ConditionalExpression: a fast path; with nothing encoded, out + text.slice(0) is the text
  return plainFrom === 0 ? text : out + text.slice(plainFrom);
}

function appendValue(parts: string[], key: string, value: QueryValue): void {
  if (value === undefined || value === null) return;
  parts.push(`${key}=${formEncode(String(value))}`);
}

/** Encodes a query or form: arrays become repeated keys, null and undefined are left out. */
export function encodeQuery(query: Query): string {
  const parts: string[] = [];
  for (const name in query) {
    if (!Object.hasOwn(query, name)) continue;
    const key = formEncode(name);
    const value = query[name];
    if (Array.isArray(value)) for (const item of value) appendValue(parts, key, item);
    else appendValue(parts, key, value as QueryValue);
  }
  return parts.join('&');
}

/** Joins NDJSON: strings and bytes are taken as already-encoded lines. */
export function toNdjson(lines: string | Uint8Array | readonly unknown[]): string | Uint8Array {
  if (typeof lines === 'string' || lines instanceof Uint8Array) return lines;
  let out = '';
  for (const line of lines) out += (typeof line === 'string' ? line : jsonText(line)) + '\n';
  return out;
}

function encodeBody(body: RequestBody): { payload: string | Uint8Array; contentType: string } {
  if ('json' in body) return { payload: jsonText(body.json), contentType: 'application/json' };
  if ('form' in body) {
    return { payload: encodeQuery(body.form), contentType: 'application/x-www-form-urlencoded' };
  }
  if ('ndjson' in body) return { payload: toNdjson(body.ndjson), contentType: 'application/x-ndjson' };
  return { payload: body.text, contentType: body.contentType ?? 'text/plain; charset=utf-8' };
}

/** The URL with the query appended (to any query it already has). */
export function urlWithQuery(url: string, query: Query | undefined): string {
  const search = query ? encodeQuery(query) : '';
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

/**
 * Turns a request spec into what undici sends: full URL, headers, encoded (and gzipped) body.
 * Synchronous unless the body is gzipped, so a plain call spends no tick here.
 */
export function buildRequest(spec: HttpRequestSpec): BuiltRequest | Promise<BuiltRequest> {
  const headers = dictionaryOf<string>({ accept: 'application/json, text/plain;q=0.9, */*;q=0.8' });
  if (spec.headers) {
    for (const name in spec.headers) {
      const value = spec.headers[name];
      if (value !== undefined) headers[name.toLowerCase()] = value;
    }
  }
  if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;

  const url = urlWithQuery(spec.url, spec.query);

  if (!spec.body) return { method: spec.method, url, headers };
  const { payload, contentType } = encodeBody(spec.body);
  headers['content-type'] ??= contentType;
  if (!spec.gzip) return { method: spec.method, url, headers, body: payload };
  headers['content-encoding'] = 'gzip';
  return gzip(payload).then((body) => ({ method: spec.method, url, headers, body }));
}

/** Trims trailing slashes so `${base}/v0/...` never doubles one. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
