import type { SandboxResponse } from '../http/types.js';

export interface FieldIssue {
  path: string;
  message: string;
}

/** The platform's error body: `{error}`, with `details` on a 400. */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toResponse(): SandboxResponse {
    return {
      status: this.status,
      body: { error: this.message, ...(this.details ? { details: this.details } : {}) },
      ...(this.headers ? { headers: this.headers } : {}),
    };
  }
}

export const badRequest = (details: FieldIssue[]) => new PlatformError(400, 'Invalid request parameters', details);
