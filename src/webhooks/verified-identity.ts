import type { WorkflowExecutionCompletedEvent } from './event.js';

/** The ids a delivery is known by, as the signed body gives them (the workflow platform's completion events). */
export interface SignedIdentity {
  eventId: string;
  executionId: string;
}

/** A Loops delivery's signed `webhook-id` (Standard Webhooks sign it with the body): the same on every retry. */
export interface LoopsSignedIdentity {
  loopsWebhookId: string;
}

// Keyed by the very object verifyWebhook returned: only a verified event has an entry, and it
// keeps the ids that were signed even if the caller changes the object later. Weak, so a
// handled event is not kept alive by this table.
const identities = new WeakMap<object, SignedIdentity | LoopsSignedIdentity>();

/** Called by verifyWebhook once signature, time and payload have all passed. */
export function recordVerified(event: WorkflowExecutionCompletedEvent): WorkflowExecutionCompletedEvent {
  identities.set(event, { eventId: event.id, executionId: event.data.executionId });
  return event;
}

/**
 * Called by verifyLoopsWebhook once signature, time and payload have all passed: both what it
 * returns and the event inside are known by the signed `webhook-id`.
 */
export function recordVerifiedLoops<T extends { id: string; event: object }>(verified: T): T {
  const identity = { loopsWebhookId: verified.id };
  identities.set(verified, identity);
  identities.set(verified.event, identity);
  return verified;
}

/** The signed ids of what verifyWebhook or verifyLoopsWebhook returned; undefined for anything else. */
export function signedIdentity(event: unknown): SignedIdentity | LoopsSignedIdentity | undefined {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: WeakMap.get answers undefined for a key that is not an object; the guard is for the type checker
  return typeof event === 'object' && event !== null ? identities.get(event) : undefined;
}
