import type { IncomingHttpHeaders } from 'node:http';
import { dictionaryOf } from '../dictionary.js';
import type { HttpResponse } from '../types.js';

const TEXT_TYPES = /^(text\/|application\/(x-ndjson|ndjson|jsonl|csv|xml|x-www-form-urlencoded))/;
const JSON_TYPES = /^application\/([\w.+-]*\+)?json\b/;

type Kind = 'json' | 'text' | 'binary';
/** A service sends a handful of distinct content types: each is classified once. */
const kinds = new Map<string, Kind>();

function kindOf(contentType: string | undefined): Kind {
  const raw = contentType ?? '';
  let kind = kinds.get(raw);
  if (kind) return kind;
  const type = raw.toLowerCase();
  kind = JSON_TYPES.test(type) ? 'json' : type === '' || TEXT_TYPES.test(type) ? 'text' : 'binary';
  if (kinds.size < 256) kinds.set(raw, kind);
  return kind;
}

/** The media types of a web page: what a browser app or a proxy's page answers, never an API this harness calls. */
const WEB_PAGE_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Whether a content type is a web page's: its media type (before any `;` parameter) compared whole. */
export function isWebPage(contentType: string | undefined): boolean {
  return WEB_PAGE_TYPES.has((contentType ?? '').split(';', 1)[0]!.trim().toLowerCase());
}

/**
 * undici's headers with lower-case names; a repeated header (an array) is joined. Most
 * responses have none, and then undici's own object is used as it is.
 */
export function flattenHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  let hasArray = false;
  for (const name in raw) {
    if (typeof raw[name] !== 'string') {
      hasArray = true;
      break;
    }
  }
  return hasArray ? headerDictionary(raw) : (raw as Record<string, string>);
}

/** Any headers object as a dictionary of lower-case names, a repeated header joined. */
export function headerDictionary(raw: Readonly<Record<string, string | readonly string[] | number | undefined>>): Record<string, string> {
  // Header names are the server's: a dictionary keeps a `__proto__` header a header.
  const headers = dictionaryOf<string>();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/**
 * A whole body by its content type: JSON parsed, text as a string, binary as bytes,
 * nothing for 204/205/304/HEAD or an empty body. A JSON content type over a body that is
 * not JSON comes back as text (`bodyKind: 'text'`), so the caller can tell.
 */
export function decodeBody(
  status: number,
  headers: Record<string, string>,
  bytes: Buffer,
  method: string,
): Pick<HttpResponse, 'body' | 'bodyKind'> {
  if (status === 204 || status === 205 || status === 304 || method === 'HEAD' || bytes.length === 0) {
    return { body: undefined, bodyKind: 'empty' };
  }
  const kind = kindOf(headers['content-type']);
  if (kind === 'binary') return { body: new Uint8Array(bytes), bodyKind: 'binary' };
  const text = bytes.toString('utf8');
  if (kind === 'text') return { body: text, bodyKind: 'text' };
  try {
    return { body: JSON.parse(text), bodyKind: 'json' };
  } catch {
    return { body: text, bodyKind: 'text' };
  }
}
