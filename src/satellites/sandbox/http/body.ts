import { gunzipSync } from 'node:zlib';
import type { SandboxRequest } from './types.js';

/** Thrown by body readers; the service turns it into its own error format. */
export class BadBody extends Error {}

function isGzip(bytes: Buffer): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The body as text: ungzipped when `Content-Encoding: gzip` says so or the gzip magic bytes lead. */
export function bodyText(req: SandboxRequest): string {
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || isGzip(req.body)) {
    try {
      return gunzipSync(req.body).toString('utf8');
    } catch {
      throw new BadBody('the body is not valid gzip');
    }
  }
  return req.body.toString('utf8');
}

export function contentType(req: SandboxRequest): string {
  return String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A JSON body; a body that is not JSON throws `BadBody`. */
export function jsonBody(req: SandboxRequest): unknown {
  const text = bodyText(req);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadBody('the body is not valid JSON');
  }
}

/** Form fields from an urlencoded body merged over the query string (the body wins). */
export function formAndQuery(req: SandboxRequest): URLSearchParams {
  const merged = new URLSearchParams(req.query);
  if (contentType(req) === 'application/x-www-form-urlencoded') {
    for (const [key, value] of new URLSearchParams(bodyText(req))) merged.set(key, value);
  }
  return merged;
}
