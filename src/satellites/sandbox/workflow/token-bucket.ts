/** Rates by plan: requests per minute and burst capacity. */
export interface BucketRate {
  requestsPerMinute: number;
  maxBurst: number;
}

export type Plan = 'free' | 'pro' | 'team' | 'enterprise';
export type Counter = 'sync' | 'async' | 'api';

/**
 * Spec 000's table for the logs endpoints; execution rates are not in the spec, so the
 * sandbox uses the platform's figures of the same period (December 2025).
 */
export const PLAN_RATES: Record<Plan, Record<Counter, BucketRate>> = {
  free: { api: { requestsPerMinute: 10, maxBurst: 20 }, sync: { requestsPerMinute: 10, maxBurst: 20 }, async: { requestsPerMinute: 50, maxBurst: 100 } },
  pro: { api: { requestsPerMinute: 30, maxBurst: 60 }, sync: { requestsPerMinute: 25, maxBurst: 50 }, async: { requestsPerMinute: 200, maxBurst: 400 } },
  team: { api: { requestsPerMinute: 60, maxBurst: 120 }, sync: { requestsPerMinute: 75, maxBurst: 150 }, async: { requestsPerMinute: 500, maxBurst: 1000 } },
  enterprise: { api: { requestsPerMinute: 120, maxBurst: 240 }, sync: { requestsPerMinute: 150, maxBurst: 300 }, async: { requestsPerMinute: 1000, maxBurst: 2000 } },
};

export interface BucketState extends BucketRate {
  remaining: number;
  resetAt: string;
}

/**
 * A token bucket per key: starts full at `maxBurst`, gains one token every
 * 60 s / requestsPerMinute up to `maxBurst`, and each request takes one.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; last: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  private refill(key: string, rate: BucketRate): { tokens: number; last: number; interval: number } {
    const interval = 60_000 / rate.requestsPerMinute;
    const t = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: rate.maxBurst, last: t };
    const steps = Math.floor((t - bucket.last) / interval);
    if (steps > 0) {
      bucket.tokens = Math.min(rate.maxBurst, bucket.tokens + steps);
      bucket.last += steps * interval;
    }
    if (bucket.tokens >= rate.maxBurst) bucket.last = t;
    this.buckets.set(key, bucket);
    return { ...bucket, interval };
  }

  /** The bucket without spending from it (for `limits` objects). */
  peek(key: string, rate: BucketRate): BucketState {
    const { tokens, last, interval } = this.refill(key, rate);
    return { ...rate, remaining: tokens, resetAt: new Date(last + interval).toISOString() };
  }

  /** Takes a token; when none is left, says how long until the next one. */
  take(key: string, rate: BucketRate): BucketState & { allowed: boolean; retryAfterSeconds: number } {
    const { tokens, last, interval } = this.refill(key, rate);
    const resetMs = last + interval;
    const state = { ...rate, resetAt: new Date(resetMs).toISOString() };
    if (tokens < 1) return { ...state, remaining: 0, allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetMs - this.now()) / 1000)) };
    this.buckets.get(key)!.tokens = tokens - 1;
    return { ...state, remaining: tokens - 1, allowed: true, retryAfterSeconds: 0 };
  }
}
