import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { CredentialHeader } from './credential-headers.js';

/**
 * A client's key: what it sends as credentials (its bearer token and its credential headers),
 * digested with SHA-256, so the concurrency and cancel tables never hold a credential. The digest
 * is made on every request (about 2 µs): a table of digests by credentials would keep the
 * credentials of every recent client in memory to save it.
 */
export function clientKeys(known: readonly CredentialHeader[]): (headers: IncomingHttpHeaders) => string {
  return (headers) => {
    let credentials = headers.authorization ?? '';
    for (const entry of known) credentials += `\n${String(headers[entry.key] ?? '')}`;
    return createHash('sha256').update(credentials).digest('base64url');
  };
}
