import type { Job } from 'bullmq';
import {
  MAX_ATTEMPTS,
  describeOutcome,
  deliveryRetryDelayMs,
  isAcknowledged,
  isDeliveryRetryable,
  type DeliveryOutcome,
} from '../delivery-retry.js';
import type { Delivery, Target } from '../queue.js';
import type { BullMq } from './load.js';

/** What a BullMQ job carries: the delivery as queued, without its progress (BullMQ keeps that). */
export type DeliveryJobData = Pick<Delivery, 'id' | 'target' | 'eventId' | 'workflowId' | 'executionId' | 'body' | 'reasons' | 'createdAt'>;

export function jobData(d: Delivery): DeliveryJobData {
  const { id, target, eventId, workflowId, executionId, body, reasons, createdAt } = d;
  return { id, target, eventId, workflowId, executionId, body, reasons, createdAt };
}

/**
 * A retryable failure, with the delay the spec's schedule gives it (jitter drawn once, so the
 * log line and BullMQ's backoff agree).
 */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/** BullMQ's custom backoff: the spec's schedule (`deliveryRetryDelayMs`), by attempts made so far. */
export function specBackoff(attemptsMade: number, _type?: string, error?: Error): number {
  if (error instanceof RetryLater) return error.delayMs;
  return deliveryRetryDelayMs(attemptsMade) ?? 0;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * One attempt of one delivery job, logged as the file queue logs it. Resolves when delivered
 * or dropped; throws `RetryLater` for BullMQ to retry on the spec's schedule, and BullMQ's
 * `UnrecoverableError` when the delivery is given up (not retryable, or schedule used up).
 */
export async function attemptDelivery(
  job: Pick<Job<DeliveryJobData>, 'data' | 'attemptsMade'>,
  deps: { bullmq: BullMq; targets: ReadonlyMap<string, Target>; timeoutMs: number; now: () => number; random: () => number; log(line: string): void; givenUp?(): void },
): Promise<void> {
  const d = job.data;
  const target = deps.targets.get(d.target);
  if (!target) {
    deps.log(`delivery ${d.id} dropped: its channel is no longer in the settings`);
    return;
  }
  const attempts = job.attemptsMade + 1;
  const delivery: Delivery = { ...d, attempts: job.attemptsMade, nextAttemptAt: deps.now(), state: 'pending' };
  let outcome: DeliveryOutcome;
  try {
    outcome = await target.send(delivery, deps.timeoutMs);
  } catch (error) {
    outcome = { kind: 'failed', retryable: true, message: (error as Error).message || 'the channel failed' };
  }
  const result = describeOutcome(outcome);
  const head = `delivery ${d.id} ${target.label} execution ${d.executionId} attempt ${attempts}/${MAX_ATTEMPTS}`;
  if (isAcknowledged(outcome)) {
    deps.log(`${head}: delivered (${result})`);
    return;
  }
  const delay = deliveryRetryDelayMs(attempts, deps.random);
  if (isDeliveryRetryable(outcome) && delay !== undefined) {
    deps.log(`${head}: ${result}, retry in ${seconds(delay)}`);
    throw new RetryLater(result, delay);
  }
  deps.log(`${head}: ${result}, giving up${isDeliveryRetryable(outcome) ? ' (schedule used up)' : ' (not retryable)'}`);
  deps.givenUp?.();
  throw new deps.bullmq.UnrecoverableError(result);
}
