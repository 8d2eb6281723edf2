export type WebhookFailureReason =
  | 'missing_header'
  | 'malformed_signature'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'invalid_payload';

/** Why a delivery was refused. Messages never carry a secret or a computed digest. */
export class WebhookVerificationError extends Error {
  /** Why, as tool errors say it (`error.code`); the same value as `reason`. */
  readonly code: WebhookFailureReason;
  /** Why (kept for existing callers; `code` is the same value). */
  readonly reason: WebhookFailureReason;
  /** Payload problems, by path, for `invalid_payload`. */
  readonly issues?: { path: string; message: string }[];

  constructor(reason: WebhookFailureReason, message: string, issues?: { path: string; message: string }[]) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = reason;
    this.reason = reason;
    if (issues) this.issues = issues;
  }
}
