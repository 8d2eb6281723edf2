import { createHash } from 'node:crypto';

/** SHA-256 of the text, base64url: 43 characters whatever the text's length. */
export function keyDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}
