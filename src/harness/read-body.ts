import type { Dispatcher } from 'undici';
import { failure } from './errors.js';
import type { HttpResponse } from './types.js';

/** Default cap on one response body: past it the body is dropped, not buffered without end. */
export const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

/** Drops a body we will not read; undici reports the abort as an error nobody else listens to. */
function drop(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function tooLarge(maxBytes: number) {
  return failure('invalid_response', `the response body is larger than the ${maxBytes}-byte limit`);
}

/**
 * The body's bytes, at most `maxBytes`. A declared length over the cap is refused before
 * reading; an undeclared one (chunked) is counted as it arrives.
 */
async function readCapped(body: Dispatcher.ResponseData['body'], declared: string | undefined, maxBytes: number): Promise<Buffer> {
  if (declared !== undefined && Number(declared) > maxBytes) {
    drop(body);
    throw tooLarge(maxBytes);
  }
  if (declared !== undefined) return Buffer.from(await body.arrayBuffer());
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      drop(body);
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const TEXT_TYPES = /^(text\/|application\/(x-ndjson|ndjson|jsonl|csv|xml|x-www-form-urlencoded))/;
const JSON_TYPES = /^application\/([\w.+-]*\+)?json\b/;

/**
 * undici's headers with lower-case names; a repeated header (an array) is joined. Most
 * responses have none, and then undici's own object is used as it is.
 */
export function flattenHeaders(raw: Dispatcher.ResponseData['headers']): Record<string, string> {
  let hasArray = false;
  for (const name in raw) {
    if (typeof raw[name] !== 'string') {
      hasArray = true;
      break;
    }
  }
  if (!hasArray) return raw as Record<string, string>;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/**
 * Reads a body by its content type: JSON parsed, text as a string, binary as bytes,
 * nothing for 204/205/HEAD or an empty body. A JSON content type over a body that is
 * not JSON comes back as text (`bodyKind: 'text'`), so the caller can tell. A body over
 * `maxBytes` is an `invalid_response` failure.
 */
export async function readBody(
  status: number,
  headers: Record<string, string>,
  body: Dispatcher.ResponseData['body'],
  method: string,
  maxBytes = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<Pick<HttpResponse, 'body' | 'bodyKind'>> {
  if (status === 204 || status === 205 || status === 304 || method === 'HEAD') {
    await body.dump();
    return { body: undefined, bodyKind: 'empty' };
  }
  const type = (headers['content-type'] ?? '').toLowerCase();
  if (JSON_TYPES.test(type) || type === '' || TEXT_TYPES.test(type)) {
    const text = (await readCapped(body, headers['content-length'], maxBytes)).toString('utf8');
    if (text.length === 0) return { body: undefined, bodyKind: 'empty' };
    if (!JSON_TYPES.test(type)) return { body: text, bodyKind: 'text' };
    try {
      return { body: JSON.parse(text), bodyKind: 'json' };
    } catch {
      return { body: text, bodyKind: 'text' };
    }
  }
  const bytes = new Uint8Array(await readCapped(body, headers['content-length'], maxBytes));
  return bytes.byteLength === 0 ? { body: undefined, bodyKind: 'empty' } : { body: bytes, bodyKind: 'binary' };
}
