import { z } from 'zod';
import { defineConnection, secretParam, type HttpResponse, type ToolError } from '../../src/kit.js';

export const apiKeyParam = secretParam(
  z
    .string()
    .min(1)
    // Not trimmed: the raw value is what gets redacted, so the key sent must be exactly it.
    .regex(/^\S+$/, 'the API key contains spaces or line breaks; paste it without them')
    .describe('Loops API key (Settings → API), sent as a Bearer token'),
);

/**
 * A 2xx whose body says `success: false` is a refusal all the same (the docs never show
 * one; integrations treat it so), reported with its message.
 */
function refusal(res: HttpResponse): ToolError | undefined {
  const body = res.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('success' in body) || body.success !== false) return undefined;
  const message = 'message' in body && typeof body.message === 'string' && body.message ? body.message : 'the service answered success: false';
  return { code: 'bad_request', message, status: res.status, retryable: false };
}

/**
 * Loops: one base URL (overridden with `options.endpoints.loops`: its spec has no base URL
 * param), the API key as a Bearer token, and calls paced per key at the documented baseline
 * of 10 requests per second per team until the response headers say otherwise.
 */
export const connection = defineConnection({
  service: 'loops',
  baseUrl: { default: 'https://app.loops.so/api/v1', env: 'LOOPS_BASE_URL' },
  credential: { param: 'apiKey', schema: apiKeyParam, header: 'authorization', scheme: 'Bearer', env: 'LOOPS_API_KEY', check: '/api-key', checkAnswer: { field: 'success', refused: false } },
  pacing: { limit: 10, windowMs: 1_000 },
  refusal,
});

/** Drops undefined entries, so an unset optional param is left out of the body. */
export function defined<T extends Record<string, unknown>>(record: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key in record) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

/** The `{ success }` answer of most write calls. */
export const successAnswer = z.looseObject({ success: z.boolean() });
