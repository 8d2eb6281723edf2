import { createHash } from 'node:crypto';
import type { Clock } from './clock.js';
import {
  DELIVERY_TIMEOUT_MS,
  MAX_ATTEMPTS,
  describeOutcome,
  isAcknowledged,
  isRetryable,
  retryDelayMs,
  type AttemptOutcome,
} from './schedule.js';

/** One payload on its way to one target, with its place in the retry schedule. */
export interface Delivery {
  /** `svc-delivery-id` and `Idempotency-Key`: the same on every attempt. */
  id: string;
  /** Key of the target (a channel, or one e-mail recipient of a channel). */
  target: string;
  eventId: string;
  workflowId: string;
  executionId: string;
  /** The payload text, kept as sent so every attempt carries the same bytes. */
  body: string;
  /** Why alert rules fired (empty when no rules are set). */
  reasons: string[];
  createdAt: number;
  /** Attempts made so far. */
  attempts: number;
  nextAttemptAt: number;
  state: 'pending' | 'delivered' | 'failed';
  lastResult?: string;
  finishedAt?: number;
}

export interface QueueState {
  deliveries: Delivery[];
}

/** Where a delivery goes; `label` is safe to log (no secret, no path of a secret URL). */
export interface Target {
  key: string;
  label: string;
  send(delivery: Delivery, timeoutMs: number): Promise<AttemptOutcome>;
}

export interface QueueOptions {
  state: QueueState;
  /** Persists the whole state; called after every change. */
  save(): void;
  targets: ReadonlyMap<string, Target>;
  clock: Clock;
  log(line: string): void;
  random?: () => number;
  timeoutMs?: number;
  /** Deliveries attempted at once. Default 8. */
  concurrency?: number;
}

/** Finished deliveries are remembered this long, so a re-enqueued event is not sent again. */
const KEEP_FINISHED_MS = 24 * 3_600_000;

/** Same target and event, same delivery id: a re-evaluated execution cannot be sent under a new id. */
export function deliveryIdFor(targetKey: string, eventId: string): string {
  return `dlv_${createHash('sha256').update(`${targetKey}\n${eventId}`).digest('hex').slice(0, 32)}`;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * The persisted delivery queue: each batch of attempts is recorded before it is sent and
 * after it is answered, so a restart resumes the schedule where it stood instead of
 * starting over or forgetting it.
 */
export class DeliveryQueue {
  private readonly random: () => number;
  private readonly timeoutMs: number;
  private readonly inFlight = new Set<string>();

  constructor(private readonly options: QueueOptions) {
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  }

  get deliveries(): readonly Delivery[] {
    return this.options.state.deliveries;
  }

  pending(): Delivery[] {
    return this.deliveries.filter((d) => d.state === 'pending');
  }

  /** Adds a delivery unless one with its id exists (pending or recently finished). Synchronous. */
  enqueue(item: Omit<Delivery, 'id' | 'createdAt' | 'attempts' | 'nextAttemptAt' | 'state'>): Delivery | undefined {
    const id = deliveryIdFor(item.target, item.eventId);
    if (this.deliveries.some((d) => d.id === id)) return undefined;
    const now = this.options.clock.now();
    const delivery: Delivery = { ...item, id, createdAt: now, attempts: 0, nextAttemptAt: now, state: 'pending' };
    this.prune(now);
    this.options.state.deliveries.push(delivery);
    return delivery;
  }

  /** The earliest time a pending delivery is due, if any. */
  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const d of this.deliveries) if (d.state === 'pending' && (next === undefined || d.nextAttemptAt < next)) next = d.nextAttemptAt;
    return next;
  }

  /** Attempts every delivery that is due now; resolves when those attempts are done. */
  async runDue(): Promise<number> {
    const { count, done } = this.startDue();
    await done;
    return count;
  }

  /**
   * Starts the due attempts: synchronously records them (a failed save throws here, with
   * nothing sent) and returns how many were started, and a promise for their end.
   */
  startDue(): { count: number; done: Promise<void> } {
    const now = this.options.clock.now();
    const due = this.pending()
      .filter((d) => d.nextAttemptAt <= now && !this.inFlight.has(d.id))
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    if (due.length === 0) return { count: 0, done: Promise.resolve() };
    const before = due.map((d) => ({ attempts: d.attempts, nextAttemptAt: d.nextAttemptAt }));
    const started = due.map((delivery) => this.begin(delivery, now));
    // Recorded before sending, in one write: if the process dies mid-attempt, the restart
    // goes on with the schedule instead of starting it over.
    try {
      this.options.save();
    } catch (error) {
      // Nothing was sent: put the batch back as it was, to be tried again.
      due.forEach((d, i) => {
        this.inFlight.delete(d.id);
        if (d.state === 'pending') Object.assign(d, before[i]);
      });
      throw error;
    }
    const workers = Array.from({ length: Math.min(this.options.concurrency ?? 8, started.length) }, async () => {
      for (let next = started.shift(); next; next = started.shift()) await this.attempt(next);
    });
    // One write for the batch's outcomes. A crash before it re-sends acknowledged deliveries
    // with the same delivery id, which is what receivers dedupe on (at least once).
    const done = Promise.all(workers).then(() => this.options.save());
    return { count: due.length, done };
  }

  private begin(delivery: Delivery, now: number): { delivery: Delivery; target?: Target; delay?: number } {
    const target = this.options.targets.get(delivery.target);
    if (!target) {
      this.finish(delivery, 'failed', 'its channel is no longer configured');
      this.options.log(`delivery ${delivery.id} dropped: its channel is no longer in the settings`);
      return { delivery };
    }
    this.inFlight.add(delivery.id);
    delivery.attempts += 1;
    const delay = retryDelayMs(delivery.attempts, this.random);
    delivery.nextAttemptAt = now + this.timeoutMs + (delay ?? 0);
    return { delivery, target, delay };
  }

  private async attempt({ delivery, target, delay }: { delivery: Delivery; target?: Target; delay?: number }): Promise<void> {
    if (!target) return;
    const { clock, log } = this.options;
    let outcome: AttemptOutcome;
    try {
      outcome = await target.send(delivery, this.timeoutMs);
    } catch (error) {
      outcome = { kind: 'failed', retryable: true, message: (error as Error).message || 'the channel failed' };
    } finally {
      this.inFlight.delete(delivery.id);
    }
    const result = describeOutcome(outcome);
    const head = `delivery ${delivery.id} ${target.label} execution ${delivery.executionId} attempt ${delivery.attempts}/${MAX_ATTEMPTS}`;
    if (isAcknowledged(outcome)) {
      this.finish(delivery, 'delivered', result);
      log(`${head}: delivered (${result})`);
    } else if (isRetryable(outcome) && delay !== undefined) {
      delivery.nextAttemptAt = clock.now() + delay;
      delivery.lastResult = result;
      log(`${head}: ${result}, retry in ${seconds(delay)}`);
    } else {
      this.finish(delivery, 'failed', result);
      log(`${head}: ${result}, giving up${isRetryable(outcome) ? ' (schedule used up)' : ' (not retryable)'}`);
    }
  }

  private finish(delivery: Delivery, state: 'delivered' | 'failed', result: string): void {
    delivery.state = state;
    delivery.lastResult = result;
    delivery.finishedAt = this.options.clock.now();
    // Only the id is needed from here on (to refuse the same event again); the body can go.
    delivery.body = '';
  }

  private prune(now: number): void {
    const state = this.options.state;
    state.deliveries = state.deliveries.filter((d) => d.state === 'pending' || now - (d.finishedAt ?? now) < KEEP_FINISHED_MS);
  }
}
