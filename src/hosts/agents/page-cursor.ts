/**
 * A cursor into the middle of a service page. A list tool's page may hold more items than a
 * model should get at once; this cursor remembers the service cursor that fetched the page
 * and how many of its items were already handed back, so the next call resumes there.
 */
export interface PageCursor {
  /** The service cursor the page was fetched with; absent for the first page. */
  cursor?: string;
  /** Items of that page already handed back. */
  offset: number;
}

const PREFIX = 'fbp1.';

export function encodePageCursor(position: PageCursor): string {
  return PREFIX + Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position in a cursor we made, or undefined for a service's own cursor (passed on as it is). */
export function decodePageCursor(value: unknown): PageCursor | undefined {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(value.slice(PREFIX.length), 'base64url').toString('utf8')) as PageCursor;
    if (Number.isInteger(parsed.offset) && parsed.offset >= 0 && (parsed.cursor === undefined || typeof parsed.cursor === 'string')) return parsed;
  } catch {
    // Not ours after all: the service will judge it.
  }
  return undefined;
}
