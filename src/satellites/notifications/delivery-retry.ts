/**
 * The notifications' retry policy: when a webhook or e-mail delivery is tried again. It sits
 * beside the harness's retry rule (src/harness/send/retry.ts, one tool call's HTTP attempts within
 * seconds) and is another policy: minutes apart, persisted across restarts.
 *
 * The spec's delivery schedule. It lists five delays beside "maximum attempts: 5"; we read
 * that as five retries after the first attempt, so every listed delay is used and a delivery
 * makes at most six requests (docs/decisions.md, "Maximum attempts: 5 means five
 * retries after the first attempt").
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 15_000, 60_000, 180_000, 600_000];

/** The first attempt plus one retry per listed delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Up to this share of extra delay, added (never subtracted) to each step. */
export const JITTER_RATIO = 0.1;

/** Each attempt gives up after this long. */
export const DELIVERY_TIMEOUT_MS = 30_000;

/**
 * The wait before the next attempt after `attempts` attempts failed, or undefined when the
 * schedule is used up.
 */
export function deliveryRetryDelayMs(attempts: number, random: () => number = Math.random): number | undefined {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + JITTER_RATIO * random()));
}

/** What one delivery attempt came to. */
export type DeliveryOutcome =
  | { kind: 'status'; status: number }
  | { kind: 'timeout'; afterMs: number }
  | { kind: 'network'; message: string }
  /** A channel that does not speak HTTP to us directly (e-mail through the Loops tool). */
  | { kind: 'failed'; retryable: boolean; message: string; status?: number };

export function isAcknowledged(outcome: DeliveryOutcome): boolean {
  return outcome.kind === 'status' && outcome.status >= 200 && outcome.status < 300;
}

/** Only 5xx, 429, time-outs and connection faults are retried; every other answer is final. */
export function isDeliveryRetryable(outcome: DeliveryOutcome): boolean {
  switch (outcome.kind) {
    case 'status':
      return outcome.status === 429 || outcome.status >= 500;
    case 'timeout':
    case 'network':
      return true;
    case 'failed':
      return outcome.retryable;
  }
}

export function describeOutcome(outcome: DeliveryOutcome): string {
  switch (outcome.kind) {
    case 'status':
      return `HTTP ${outcome.status}`;
    case 'timeout':
      return `no answer within ${outcome.afterMs / 1000} s`;
    case 'network':
      return outcome.message;
    case 'failed':
      return outcome.status === undefined ? outcome.message : `HTTP ${outcome.status}: ${outcome.message}`;
  }
}
