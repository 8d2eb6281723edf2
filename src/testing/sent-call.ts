import { gunzipSync } from 'node:zlib';
import { Redactor } from '../harness/mask/redact.js';
import type { SentRequest } from './answer-dispatcher.js';

/** One request the mock received, readable: secrets masked, the body decoded by its content type. */
export interface ReadableRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** Parsed JSON, a form as an object, NDJSON as an array of values, else the text; undefined when empty. */
  body: unknown;
}

function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of search) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

function decodeBody(text: string, contentType: string): unknown {
  if (text === '') return undefined;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  try {
    if (type === 'application/json' || type.endsWith('+json')) return JSON.parse(text) as unknown;
    if (type === 'application/x-ndjson') return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown);
  } catch {
    return text;
  }
  if (type === 'application/x-www-form-urlencoded') return queryObject(new URLSearchParams(text));
  return text;
}

/** The request's body as text, gunzipped when it was sent gzipped. */
export function bodyText(request: SentRequest): string {
  if (!request.body) return '';
  const gzipped = request.headers['content-encoding'] === 'gzip';
  return (gzipped ? gunzipSync(request.body) : request.body).toString('utf8');
}

/**
 * The request with every secret masked: header values as sent, the path, query and body once
 * decoded (percent-decoding, JSON's `\u` escapes, a form's `+`), so no form a decoder makes can
 * keep one; a body that does not decode is masked as text.
 */
export function readableRequest(request: SentRequest, secrets: readonly string[]): ReadableRequest {
  const redactor = new Redactor(secrets);
  const url = new URL(request.path, 'http://mock.invalid');
  const headers = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(request.headers)) headers[name] = redactor.text(value);
  const search = new URLSearchParams();
  for (const [key, value] of url.searchParams) search.append(key, redactor.text(value));
  return {
    method: request.method,
    path: redactor.text(decodeURIComponentSafe(url.pathname)),
    query: queryObject(search),
    headers,
    body: redactor.value(decodeBody(bodyText(request), request.headers['content-type'] ?? '')),
  };
}

function decodeURIComponentSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The credential a request carries in a header: its value without the scheme (`Bearer `). */
export function credentialIn(request: SentRequest, header: string, scheme: string | undefined): string | undefined {
  const value = request.headers[header.toLowerCase()];
  if (value === undefined) return undefined;
  const prefix = scheme ? `${scheme} ` : '';
  return value.startsWith(prefix) ? value.slice(prefix.length) : value;
}
