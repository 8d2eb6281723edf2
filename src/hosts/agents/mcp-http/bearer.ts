import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * Whether an `Authorization` header carries `Bearer <token>`. Digests of equal length are
 * compared in constant time, so neither the token's length nor a matching prefix shows in
 * how long a refusal takes.
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    if (authorization === undefined) return false;
    const space = authorization.indexOf(' ');
    if (space < 0 || authorization.slice(0, space).toLowerCase() !== 'bearer') return false;
    return timingSafeEqual(digest(authorization.slice(space + 1).trim()), expected);
  };
}
