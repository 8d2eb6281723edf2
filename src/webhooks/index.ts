/**
 * Completion webhooks of the workflow platform, importable as `flowblocks/webhooks`: sign a
 * delivery (and build its headers), verify one on the raw body, and drop repeats. Beside
 * them, Loops' own webhooks (Standard Webhooks): `verifyLoopsWebhook`.
 */
export { signWebhook, type SignOptions, type SignWebhookOptions, type SignedDelivery } from './sign.js';
export { deliveryHeaders, type DeliveryHeaderOptions } from './delivery-headers.js';
export { verifyWebhook, DEFAULT_TOLERANCE_MS, type VerifyOptions } from './verify.js';
export { WebhookVerificationError, type WebhookFailureReason } from './errors.js';
export {
  workflowExecutionCompletedEventSchema,
  type WorkflowExecutionCompletedEvent,
} from './event.js';
export { WebhookDeduplicator, DEFAULT_DEDUPE_TTL_MS, MIN_DEDUPE_TTL_MS, type DedupeEvent, type DeduplicatorOptions } from './dedupe.js';
export {
  MemoryDedupeStore,
  DedupeStoreFullError,
  DEDUPE_ENTRY_BYTES,
  DEDUPE_PROTECTED_MS,
  DEFAULT_DEDUPE_MAX_BYTES,
  type DedupeStore,
  type MemoryDedupeStoreOptions,
} from './dedupe-store.js';
export { EVENT_TYPE, DEFAULT_HEADER_PREFIX, headerNames, type WebhookHeaderNames } from './names.js';
export { headerValue, type HeaderSource } from './header-source.js';
export type { WebhookBody } from './signature.js';
export {
  verifyLoopsWebhook,
  signLoopsWebhook,
  loopsSecretKey,
  loopsWebhookEventSchema,
  LOOPS_WEBHOOK_EVENTS,
  type LoopsVerifyOptions,
  type LoopsWebhookEvent,
  type LoopsWebhookEventName,
  type VerifiedLoopsWebhook,
} from './loops.js';
