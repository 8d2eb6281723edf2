import { MemoryDedupeStore, type DedupeStore } from './dedupe-store.js';
import type { WorkflowExecutionCompletedEvent } from './event.js';
import type { LoopsWebhookEvent, VerifiedLoopsWebhook } from './loops.js';
import type { HeaderSource } from './header-source.js';
import { keyDigest } from './key-digest.js';
import { DEFAULT_TOLERANCE_MS } from './verify.js';
import { signedIdentity } from './verified-identity.js';

/** A day: far beyond the spec's retry schedule (about 15 minutes) and a sender's re-dispatch. */
export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60_000;

/**
 * Twice the replay window: a delivery signed 5 minutes ahead of the receiver's clock can be
 * replayed until 5 minutes after its signed time, so its key must outlive both.
 */
export const MIN_DEDUPE_TTL_MS = 2 * DEFAULT_TOLERANCE_MS;

export interface DeduplicatorOptions {
  store?: DedupeStore;
  /** How long a delivery is remembered; at least `MIN_DEDUPE_TTL_MS`. */
  ttlMs?: number;
  /** @deprecated Ignored: headers are not signed, so they are no longer read. */
  prefix?: string;
  /**
   * Treat every event for the same execution as one delivery. On by default. Off: one
   * delivery per event id (and execution), e.g. an alert and a completion for one execution.
   */
  byExecutionId?: boolean;
}

/**
 * The event `verifyWebhook` returned, or what `verifyLoopsWebhook` returned (or the `event`
 * inside it); nothing else is accepted.
 */
export type DedupeEvent = WorkflowExecutionCompletedEvent | VerifiedLoopsWebhook | LoopsWebhookEvent;

/**
 * Drops repeated deliveries by the ids inside the signed body (`data.executionId`, or the
 * event `id`): the delivery id and `Idempotency-Key` headers are not signed, so anyone
 * replaying a delivery could change them. A Loops delivery is dropped by its `webhook-id`,
 * which Standard Webhooks sign with the body. Only what `verifyWebhook` or
 * `verifyLoopsWebhook` returned is accepted, so a delivery that did not verify never claims a key.
 */
export class WebhookDeduplicator {
  private readonly store: DedupeStore;
  private readonly ttlMs: number;
  private readonly byExecutionId: boolean;

  constructor(options: DeduplicatorOptions = {}) {
    this.store = options.store ?? new MemoryDedupeStore();
    this.ttlMs = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
    if (!(this.ttlMs >= MIN_DEDUPE_TTL_MS)) {
      throw new RangeError(`ttlMs must be at least ${MIN_DEDUPE_TTL_MS} ms, or a replay inside the window would be processed again`);
    }
    this.byExecutionId = options.byExecutionId ?? true;
  }

  /** The store key of a verified event: a fixed-length digest of its signed ids. */
  key(event: DedupeEvent): string {
    const identity = signedIdentity(event);
    if (!identity) throw new TypeError('pass what verifyWebhook or verifyLoopsWebhook returned: only a verified delivery may claim a key');
    // A Loops delivery is known by its signed webhook-id: a replay carries the same one, and another id breaks the signature.
    if ('loopsWebhookId' in identity) return `webhook:${keyDigest(JSON.stringify(['loops', identity.loopsWebhookId]))}`;
    const ids = this.byExecutionId ? ['execution', identity.executionId] : ['event', identity.eventId, identity.executionId];
    return `webhook:${keyDigest(JSON.stringify(ids))}`;
  }

  /**
   * True for the first copy of a delivery (process it), false for a repeat (acknowledge it
   * and do nothing). Takes the verified event; the headers of the older two-argument form
   * are ignored.
   */
  claim(event: DedupeEvent): Promise<boolean>;
  /** @deprecated The headers are ignored: pass the verified event alone. */
  claim(headers: HeaderSource, event: DedupeEvent): Promise<boolean>;
  async claim(...args: [DedupeEvent] | [HeaderSource, DedupeEvent]): Promise<boolean> {
    return this.store.claim(this.key(args.length === 1 ? args[0] : args[1]), this.ttlMs);
  }

  /** Forgets a delivery whose handling failed, so the sender's retry gets through. */
  release(event: DedupeEvent): Promise<void>;
  /** @deprecated The headers are ignored: pass the verified event alone. */
  release(headers: HeaderSource, event: DedupeEvent): Promise<void>;
  async release(...args: [DedupeEvent] | [HeaderSource, DedupeEvent]): Promise<void> {
    await this.store.release(this.key(args.length === 1 ? args[0] : args[1]));
  }
}
