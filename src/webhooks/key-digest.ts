import { createHash } from 'node:crypto';

/** SHA-256 of the text, base64url: 43 characters whatever the text's length. */
export function keyDigest(text: string): string {
  const hash = createHash('sha256');
  // Stryker disable next-line StringLiteral: Node hashes a string as UTF-8 when no encoding (or '') is given; 'utf8' only says so
  hash.update(text, 'utf8');
  return hash.digest('base64url');
}
