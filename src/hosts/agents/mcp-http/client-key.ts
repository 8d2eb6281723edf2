import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { CredentialHeader } from './credential-headers.js';

/** Distinct clients whose keys are kept; past it the oldest is computed again when it returns. */
export const CLIENT_KEYS_KEPT = 1024;

/**
 * A client's key: what it sends as credentials (its bearer token and its credential headers),
 * digested with SHA-256, so the concurrency and cancel tables never hold a credential. A client
 * sends the same on every request: the digest is kept per credentials, in a bounded table.
 */
export function clientKeys(known: readonly CredentialHeader[], kept = CLIENT_KEYS_KEPT): (headers: IncomingHttpHeaders) => string {
  const keys = new Map<string, string>();
  return (headers) => {
    let credentials = headers.authorization ?? '';
    for (const entry of known) credentials += `\n${String(headers[entry.key] ?? '')}`;
    let key = keys.get(credentials);
    if (key === undefined) {
      key = createHash('sha256').update(credentials).digest('base64url');
      // A Map iterates in insertion order: its first key is the oldest.
      if (keys.size >= kept) keys.delete(keys.keys().next().value!);
      keys.set(credentials, key);
    }
    return key;
  };
}
