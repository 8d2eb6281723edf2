import type { WorkflowExecutionCompletedEvent } from './event.js';

/** The ids a delivery is known by, as the signed body gives them. */
export interface SignedIdentity {
  eventId: string;
  executionId: string;
}

// Keyed by the very object verifyWebhook returned: only a verified event has an entry, and it
// keeps the ids that were signed even if the caller changes the object later. Weak, so a
// handled event is not kept alive by this table.
const identities = new WeakMap<object, SignedIdentity>();

/** Called by verifyWebhook once signature, time and payload have all passed. */
export function recordVerified(event: WorkflowExecutionCompletedEvent): WorkflowExecutionCompletedEvent {
  identities.set(event, { eventId: event.id, executionId: event.data.executionId });
  return event;
}

/** The signed ids of an event verifyWebhook returned; undefined for anything else. */
export function signedIdentity(event: unknown): SignedIdentity | undefined {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: WeakMap.get answers undefined for a key that is not an object; the guard is for the type checker
  return typeof event === 'object' && event !== null ? identities.get(event) : undefined;
}
