import { z } from 'zod';
import { secretParam, userOnlyParam } from '../../src/harness/fields.js';
import { joinUrl } from '../../src/harness/request.js';
import type { RateLimitInfo } from '../../src/harness/types.js';
import type { limitsSchema } from './schemas.js';

/** Service key for `options.endpoints`; the workflow tools take `base_url` as a param instead. */
export const SERVICE = 'workflow';

export const baseUrlParam = userOnlyParam(
  z.url({ protocol: /^https?$/ }).describe('Base URL of the workflow platform, e.g. https://sim.ai or a self-hosted install'),
);

export const apiKeyParam = secretParam(
  z.string().min(1).describe('API key from the platform settings, sent as X-API-Key'),
);

export function workflowUrl(base: string, path: string): string {
  return joinUrl(base, path);
}

/** The spec spells it `X-API-Key` on execution and job calls and `x-api-key` on log calls: one header either way. */
export function apiKeyHeaders(apiKey: string): Record<string, string> {
  return { 'X-API-Key': apiKey };
}

/** The execution bucket of a `limits` object as `meta.rateLimit` (execute responses carry no rate-limit headers). */
export function executionRateLimit(
  limits: z.input<typeof limitsSchema> | undefined,
  mode: 'sync' | 'async',
): RateLimitInfo | undefined {
  // Read before the output is validated, so the shape is checked here.
  const bucket = limits?.workflowExecutionRateLimit?.[mode];
  if (typeof bucket?.requestsPerMinute !== 'number' || typeof bucket.remaining !== 'number') return undefined;
  const info: RateLimitInfo = { limit: bucket.requestsPerMinute, remaining: bucket.remaining };
  if (typeof bucket.resetAt === 'string') info.resetAt = bucket.resetAt;
  return info;
}

/** A JSON body as a record (an empty one when it is not an object); the output schema judges the rest. */
export function bodyRecord(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
