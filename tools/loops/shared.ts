import { createHash } from 'node:crypto';
import { z } from 'zod';
import { endpoint } from '../../src/harness/define-tool.js';
import { failure } from '../../src/harness/errors.js';
import { secretParam } from '../../src/harness/fields.js';
import type { ExecuteOptions, HttpRequestSpec, HttpResponse } from '../../src/harness/types.js';

/** Service key for `options.endpoints` (the sandbox and tests point it elsewhere). */
export const SERVICE = 'loops';
export const LOOPS_API = 'https://app.loops.so/api/v1';

/** Loops' documented baseline: 10 requests per second per team. The response headers override it. */
const DOCUMENTED_LIMIT = 10;
const WINDOW_MS = 1_000;

export const apiKeyParam = secretParam(
  z
    .string()
    .min(1)
    // Not trimmed: the raw value is what gets redacted, so the key sent must be exactly it.
    .regex(/^\S+$/, 'the API key contains spaces or line breaks; paste it without them')
    .describe('Loops API key (Settings → API), sent as a Bearer token'),
);

/** Calls with one key share one team's rate limit; the key itself is hashed so it is never held as a map key. */
function pacingKey(apiKey: string): string {
  return `loops:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
}

type LoopsCall = Omit<HttpRequestSpec, 'url' | 'headers' | 'pacing'> & { path: string };

/** One Loops call: base URL (overridable), Bearer key, and pacing per key. */
export function loopsRequest(apiKey: string, options: ExecuteOptions, call: LoopsCall): HttpRequestSpec {
  const { path, ...rest } = call;
  return {
    ...rest,
    url: endpoint(options, SERVICE, LOOPS_API) + path,
    headers: { authorization: `Bearer ${apiKey}` },
    pacing: { key: pacingKey(apiKey), limit: DOCUMENTED_LIMIT, windowMs: WINDOW_MS },
  };
}

/**
 * The JSON body of a 2xx. A 2xx whose body says `success: false` is a refusal all the
 * same (the docs never show one; integrations treat it so), reported with its message.
 */
export function successBody<T>(res: HttpResponse): T {
  const body = res.body as { success?: unknown; message?: unknown } | undefined;
  if (body && typeof body === 'object' && !Array.isArray(body) && body.success === false) {
    const message = typeof body.message === 'string' && body.message ? body.message : 'the service answered success: false';
    throw failure('bad_request', message, { status: res.status });
  }
  return res.body as T;
}

/** Drops undefined entries, so an unset optional param is left out of the body. */
export function defined<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The bare JSON array some list calls answer with; anything else is not what the service promises. */
export function arrayBody(res: HttpResponse, what: string): Record<string, unknown>[] {
  const body = successBody<unknown>(res);
  if (!Array.isArray(body)) throw failure('invalid_response', `expected an array of ${what}`, { status: res.status });
  return body as Record<string, unknown>[];
}
