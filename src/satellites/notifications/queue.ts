import { createHash } from 'node:crypto';
import type { Clock } from './clock.js';
import {
  DELIVERY_TIMEOUT_MS,
  MAX_ATTEMPTS,
  describeOutcome,
  isAcknowledged,
  isDeliveryRetryable,
  deliveryRetryDelayMs,
  type DeliveryOutcome,
} from './delivery-retry.js';

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

/**
 * One delivery's progress, journaled when an attempt starts and when it ends (or when the
 * delivery is dropped). Each entry holds the fields' new values, not a difference, so
 * replaying an entry twice leaves the same state as replaying it once.
 */
export interface DeliveryProgress {
  event: 'attempt-started' | 'attempt-ended' | 'dropped';
  id: string;
  attempts: number;
  nextAttemptAt: number;
  state: Delivery['state'];
  lastResult?: string;
  finishedAt?: number;
}

/** Where a delivery goes; `label` is safe to log (no secret, no path of a secret URL). */
export interface Target {
  key: string;
  label: string;
  send(delivery: Delivery, timeoutMs: number): Promise<DeliveryOutcome>;
}

export interface QueueOptions {
  state: QueueState;
  /** Persists one delivery's progress before the queue acts on it; throws when it cannot. */
  record(progress: DeliveryProgress): void;
  targets: ReadonlyMap<string, Target>;
  clock: Clock;
  log(line: string): void;
  random?: () => number;
  timeoutMs?: number;
  /** Deliveries attempted at once. Default 8. */
  concurrency?: number;
  /** Called when a delivery is given up (not retryable, or its schedule used up). */
  onGivenUp?(delivery: Delivery): void;
}

/** Finished deliveries are remembered this long, so a re-enqueued event is not sent again. */
const KEEP_FINISHED_MS = 24 * 3_600_000;

/** Same target and event, same delivery id: a re-evaluated execution cannot be sent under a new id. */
export function deliveryIdFor(targetKey: string, eventId: string): string {
  return `dlv_${createHash('sha256').update(`${targetKey}\n${eventId}`).digest('hex').slice(0, 32)}`;
}

function applyProgress(delivery: Delivery, progress: DeliveryProgress): void {
  delivery.attempts = progress.attempts;
  delivery.nextAttemptAt = progress.nextAttemptAt;
  delivery.state = progress.state;
  if (progress.lastResult !== undefined) delivery.lastResult = progress.lastResult;
  if (progress.finishedAt !== undefined) delivery.finishedAt = progress.finishedAt;
  // Only the id is needed from here on (to refuse the same event again); the body can go.
  if (progress.state !== 'pending') delivery.body = '';
}

/** Applies journaled progress to a loaded queue; entries of deliveries since pruned are skipped. */
export function replayProgress(state: QueueState, journal: readonly DeliveryProgress[]): void {
  const byId = new Map(state.deliveries.map((d) => [d.id, d]));
  for (const progress of journal) {
    const delivery = byId.get(progress.id);
    if (delivery) applyProgress(delivery, progress);
  }
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * The persisted delivery queue. Each attempt is recorded when it starts and again when it
 * ends, so a process killed mid-batch leaves the deliveries it never started untouched, and
 * the ones it had answered marked as answered: a restart re-sends only what was in flight.
 */
export class DeliveryQueue {
  private readonly random: () => number;
  private readonly timeoutMs: number;
  /** Claimed by a running batch (in memory only: nothing is recorded until an attempt starts). */
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

  /** The earliest time a pending delivery that no batch holds is due, if any. */
  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const d of this.deliveries) {
      if (d.state === 'pending' && !this.inFlight.has(d.id) && (next === undefined || d.nextAttemptAt < next)) next = d.nextAttemptAt;
    }
    return next;
  }

  /** Attempts every delivery that is due now; resolves when those attempts are done. */
  async runDue(): Promise<number> {
    const { count, done } = this.startDue();
    await done;
    return count;
  }

  /**
   * Claims the due deliveries and starts attempting them, `concurrency` at a time. Returns
   * how many were claimed and a promise for the end; it rejects when an attempt could not be
   * recorded (nothing is sent then), after the claims still waiting are given back.
   */
  startDue(): { count: number; done: Promise<void> } {
    const now = this.options.clock.now();
    const due = this.pending()
      .filter((d) => d.nextAttemptAt <= now && !this.inFlight.has(d.id))
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    if (due.length === 0) return { count: 0, done: Promise.resolve() };
    due.forEach((d) => this.inFlight.add(d.id));
    const waiting = [...due];
    const worker = async () => {
      for (let next = waiting.shift(); next; next = waiting.shift()) await this.attempt(next);
    };
    const workers = Array.from({ length: Math.min(this.options.concurrency ?? 8, due.length) }, () => worker());
    const done = Promise.allSettled(workers).then((results) => {
      waiting.splice(0).forEach((d) => this.inFlight.delete(d.id));
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    });
    return { count: due.length, done };
  }

  private async attempt(delivery: Delivery): Promise<void> {
    try {
      const target = this.options.targets.get(delivery.target);
      if (!target) {
        this.progress(delivery, 'dropped', this.finished('failed', 'its channel is no longer configured'));
        this.options.log(`delivery ${delivery.id} dropped: its channel is no longer in the settings`);
        return;
      }
      if (delivery.attempts >= MAX_ATTEMPTS) {
        // The process died during the last attempt (it counts as made), so none is left.
        this.progress(delivery, 'dropped', this.finished('failed', 'the monitor stopped during the last attempt; its outcome is unknown'));
        this.options.log(`delivery ${delivery.id} ${target.label} execution ${delivery.executionId}: the monitor stopped during attempt ${delivery.attempts}/${MAX_ATTEMPTS}, giving up (schedule used up)`);
        this.options.onGivenUp?.(delivery);
        return;
      }
      await this.send(delivery, target);
    } finally {
      this.inFlight.delete(delivery.id);
    }
  }

  private async send(delivery: Delivery, target: Target): Promise<void> {
    const { clock, log } = this.options;
    const attempts = delivery.attempts + 1;
    const delay = deliveryRetryDelayMs(attempts, this.random);
    // Recorded before the request goes out. If the process dies during it, the attempt
    // counts as made and failed, and the retry is due `delay` after its start.
    this.progress(delivery, 'attempt-started', { attempts, nextAttemptAt: clock.now() + (delay ?? 0) });
    let outcome: DeliveryOutcome;
    try {
      outcome = await target.send(delivery, this.timeoutMs);
    } catch (error) {
      outcome = { kind: 'failed', retryable: true, message: (error as Error).message || 'the channel failed' };
    }
    const result = describeOutcome(outcome);
    const head = `delivery ${delivery.id} ${target.label} execution ${delivery.executionId} attempt ${attempts}/${MAX_ATTEMPTS}`;
    if (isAcknowledged(outcome)) {
      this.progress(delivery, 'attempt-ended', this.finished('delivered', result));
      log(`${head}: delivered (${result})`);
    } else if (isDeliveryRetryable(outcome) && delay !== undefined) {
      this.progress(delivery, 'attempt-ended', { nextAttemptAt: clock.now() + delay, lastResult: result });
      log(`${head}: ${result}, retry in ${seconds(delay)}`);
    } else {
      this.progress(delivery, 'attempt-ended', this.finished('failed', result));
      log(`${head}: ${result}, giving up${isDeliveryRetryable(outcome) ? ' (schedule used up)' : ' (not retryable)'}`);
      this.options.onGivenUp?.(delivery);
    }
  }

  private finished(state: 'delivered' | 'failed', lastResult: string): Partial<DeliveryProgress> {
    return { state, lastResult, finishedAt: this.options.clock.now() };
  }

  /** Applies a change and records it; a change that cannot be recorded is undone, so memory never runs ahead of the disk. */
  private progress(delivery: Delivery, event: DeliveryProgress['event'], change: Partial<DeliveryProgress>): void {
    const { id, attempts, nextAttemptAt, state, lastResult, finishedAt, body } = delivery;
    const progress: DeliveryProgress = { event, id, attempts, nextAttemptAt, state, lastResult, finishedAt, ...change };
    applyProgress(delivery, progress);
    try {
      this.options.record(progress);
    } catch (error) {
      Object.assign(delivery, { attempts, nextAttemptAt, state, lastResult, finishedAt, body });
      throw error;
    }
  }

  private prune(now: number): void {
    const state = this.options.state;
    state.deliveries = state.deliveries.filter((d) => d.state === 'pending' || now - (d.finishedAt ?? now) < KEEP_FINISHED_MS);
  }
}
