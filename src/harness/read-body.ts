import type { Dispatcher } from 'undici';
import type { HttpResponse } from './types.js';

const TEXT_TYPES = /^(text\/|application\/(x-ndjson|ndjson|jsonl|csv|xml|x-www-form-urlencoded))/;
const JSON_TYPES = /^application\/([\w.+-]*\+)?json\b/;

/** Flattens undici's headers (arrays joined) with lower-case names. */
export function flattenHeaders(raw: Dispatcher.ResponseData['headers']): Record<string, string> {
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
 * not JSON comes back as text (`bodyKind: 'text'`), so the caller can tell.
 */
export async function readBody(
  status: number,
  headers: Record<string, string>,
  body: Dispatcher.ResponseData['body'],
  method: string,
): Promise<Pick<HttpResponse, 'body' | 'bodyKind'>> {
  if (status === 204 || status === 205 || status === 304 || method === 'HEAD') {
    await body.dump();
    return { body: undefined, bodyKind: 'empty' };
  }
  const bytes = new Uint8Array(await body.arrayBuffer());
  if (bytes.byteLength === 0) return { body: undefined, bodyKind: 'empty' };
  const type = (headers['content-type'] ?? '').toLowerCase();
  if (JSON_TYPES.test(type)) {
    const text = new TextDecoder().decode(bytes);
    try {
      return { body: JSON.parse(text), bodyKind: 'json' };
    } catch {
      return { body: text, bodyKind: 'text' };
    }
  }
  if (type === '' || TEXT_TYPES.test(type)) return { body: new TextDecoder().decode(bytes), bodyKind: 'text' };
  return { body: bytes, bodyKind: 'binary' };
}
