export type WebhookFailureReason =
  | 'missing_header'
  | 'malformed_signature'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'invalid_payload';

/** Why a delivery was refused. Messages never carry a secret or a computed digest. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookFailureReason;
  /** Payload problems, by path, for `invalid_payload`. */
  readonly issues?: { path: string; message: string }[];

  constructor(reason: WebhookFailureReason, message: string, issues?: { path: string; message: string }[]) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
    if (issues) this.issues = issues;
  }
}
