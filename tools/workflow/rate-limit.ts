import type { z } from 'zod';
import type { RateLimitInfo } from '../../src/kit.js';
import type { limitsSchema } from './schemas.js';

/** The execution bucket of a `limits` object as `meta.rateLimit` (execute responses carry no rate-limit headers). */
export function executionRateLimit(
  limits: z.output<typeof limitsSchema> | undefined,
  mode: 'sync' | 'async',
): RateLimitInfo | undefined {
  const bucket = limits?.workflowExecutionRateLimit[mode];
  if (!bucket) return undefined;
  return { limit: bucket.requestsPerMinute, remaining: bucket.remaining, resetAt: bucket.resetAt };
}
