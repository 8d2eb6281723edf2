import { createHash } from 'node:crypto';

/** SHA-256 of the text, base64url: 43 characters whatever the text's length. */
export function keyDigest(text: string): string {
  const hash = createHash('sha256');
  hash.update(text, 'utf8');
  return hash.digest('base64url');
}
