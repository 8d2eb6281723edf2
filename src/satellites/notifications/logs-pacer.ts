import type { Clock } from './clock.js';

/** The spec's logs-endpoint rates (requests per minute) by plan. */
export const PLAN_REQUESTS_PER_MINUTE: Readonly<Record<string, number>> = {
  free: 10,
  pro: 30,
  team: 60,
  enterprise: 120,
};

/**
 * Keeps the monitor under the logs endpoint's token bucket. Pages go back to back while the
 * service says tokens remain (the burst); when it says none remain we wait for its refill
 * time; when it says nothing we space calls at the plan's sustained rate (the free plan's
 * until a response names the plan).
 */
export class LogsPacer {
  private requestsPerMinute = PLAN_REQUESTS_PER_MINUTE.free as number;
  private remaining: number | undefined;
  private resetAt: number | undefined;
  private lastRequestAt: number | undefined;

  constructor(private readonly clock: Clock) {}

  /** The sustained gap between calls at the plan's rate. */
  get sustainedGapMs(): number {
    return 60_000 / this.requestsPerMinute;
  }

  /** How long to wait before the next call. */
  delayMs(): number {
    const now = this.clock.now();
    if (this.remaining !== undefined) {
      if (this.remaining >= 1) return 0;
      return this.resetAt !== undefined ? Math.min(60_000, Math.max(0, this.resetAt - now)) : this.sustainedGapMs;
    }
    return this.lastRequestAt === undefined ? 0 : Math.max(0, this.lastRequestAt + this.sustainedGapMs - now);
  }

  async beforeRequest(signal?: AbortSignal): Promise<void> {
    const wait = this.delayMs();
    if (wait > 0) await this.clock.sleep(wait, signal);
    this.lastRequestAt = this.clock.now();
  }

  /** Reads what a response said: its rate-limit headers and the limits object's plan. */
  observe(rateLimit: { remaining?: number; resetAt?: string } | undefined, plan: string | undefined): void {
    const rate = plan === undefined ? undefined : PLAN_REQUESTS_PER_MINUTE[plan.toLowerCase()];
    if (rate !== undefined) this.requestsPerMinute = rate;
    this.remaining = rateLimit?.remaining;
    const reset = rateLimit?.resetAt === undefined ? NaN : Date.parse(rateLimit.resetAt);
    this.resetAt = Number.isNaN(reset) ? undefined : reset;
  }

  /** After a 429: nothing remains until the service's time. */
  exhausted(retryAfterMs: number): void {
    this.remaining = 0;
    this.resetAt = this.clock.now() + retryAfterMs;
  }
}
