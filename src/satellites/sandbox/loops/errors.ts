import type { SandboxResponse } from '../http/types.js';

/** A refusal in Loops' envelope: `success: false` and a `message`, plus any legacy keys. */
export class LoopsError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toResponse(): SandboxResponse {
    return { status: this.status, body: { success: false, message: this.message, ...this.extra } };
  }
}

export const fail = (status: number, message: string, extra?: Record<string, unknown>) => new LoopsError(status, message, extra);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: unknown): string {
  if (typeof email !== 'string' || !EMAIL.test(email)) throw fail(400, 'Invalid email address.');
  return email;
}

/** Loops caps every body value at 500 characters, quotes included; attachment data is bounded by the 4 MB total instead. */
export function checkValueLengths(value: unknown, key = ''): void {
  if (key === 'attachments') return;
  if (typeof value === 'string' && JSON.stringify(value).length > 500) {
    throw fail(400, 'Some body key or value is longer than allowable');
  }
  if (Array.isArray(value)) value.forEach((item) => checkValueLengths(item));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) checkValueLengths(v, k);
  }
}

/** Exactly one of `email` / `userId`, as find, delete and suppression need. */
export function exactlyOne(email: unknown, userId: unknown): { email?: string; userId?: string } {
  const hasEmail = typeof email === 'string' && email !== '';
  const hasUserId = typeof userId === 'string' && userId !== '';
  if (hasEmail && hasUserId) throw fail(400, '`email` and `userId` are both provided. Only one parameter is allowed.');
  if (!hasEmail && !hasUserId) throw fail(400, 'An email or userId is required.');
  return hasEmail ? { email: checkEmail(email) } : { userId: userId as string };
}
