import { describe, expect, it } from 'vitest';
import { describeOutcome, isAcknowledged, isDeliveryRetryable, type DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';

describe('what a delivery attempt came to', () => {
  it('is acknowledged by a 2xx only: not a 3xx, not a 1xx, not a fault', () => {
    const status = (s: number): DeliveryOutcome => ({ kind: 'status', status: s });
    expect([199, 200, 204, 299, 300, 301, 404, 500].map((s) => isAcknowledged(status(s)))).toEqual([false, true, true, true, false, false, false, false]);
    expect(isAcknowledged({ kind: 'timeout', afterMs: 30_000 })).toBe(false);
    expect(isAcknowledged({ kind: 'network', message: 'reset' })).toBe(false);
    expect(isAcknowledged({ kind: 'failed', retryable: false, message: 'x', status: 200 })).toBe(false);
  });

  it('is retried after 5xx, 429, time-outs, faults and failures that say so', () => {
    expect([400, 409, 428, 429, 499, 500, 503].map((s) => isDeliveryRetryable({ kind: 'status', status: s }))).toEqual([false, false, false, true, false, true, true]);
    expect(isDeliveryRetryable({ kind: 'timeout', afterMs: 1 })).toBe(true);
    expect(isDeliveryRetryable({ kind: 'network', message: 'reset' })).toBe(true);
    expect(isDeliveryRetryable({ kind: 'failed', retryable: true, message: 'x' })).toBe(true);
    expect(isDeliveryRetryable({ kind: 'failed', retryable: false, message: 'x' })).toBe(false);
  });

  it('is described in words for the log', () => {
    expect(describeOutcome({ kind: 'status', status: 503 })).toBe('HTTP 503');
    expect(describeOutcome({ kind: 'timeout', afterMs: 30_000 })).toBe('no answer within 30 s');
    expect(describeOutcome({ kind: 'network', message: 'connect ECONNREFUSED' })).toBe('connect ECONNREFUSED');
    expect(describeOutcome({ kind: 'failed', retryable: false, message: 'bad address' })).toBe('bad address');
    expect(describeOutcome({ kind: 'failed', retryable: true, message: 'slow down', status: 429 })).toBe('HTTP 429: slow down');
  });
});
