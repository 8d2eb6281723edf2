import { isWebPage } from './send/decode-body.js';
import type { HttpResponse, ResultMeta, ToolError, ToolErrorCode, ToolIssue } from './types.js';

/** A tool-level failure on its way to becoming a result; never escapes `executeTool`. */
export class ToolFailure extends Error {
  readonly error: ToolError;
  /** The response that failed, when there was one (for meta). */
  readonly response?: HttpResponse;
  /**
   * Which attempt of its request failed. Above 1, earlier attempts may have done the work
   * (a 409 for a used idempotency key then means the first attempt was delivered).
   */
  readonly attempt?: number;

  constructor(error: ToolError, response?: HttpResponse, attempt?: number) {
    super(error.message);
    this.name = 'ToolFailure';
    this.error = error;
    this.response = response;
    this.attempt = attempt;
  }
}

/** Thrown by helpers for programs (like `paginate`) when a call fails; tools themselves return results. */
export class ToolCallError extends Error {
  readonly error: ToolError;
  readonly meta: ResultMeta;

  constructor(toolId: string, error: ToolError, meta: ResultMeta) {
    super(`${toolId} failed (${error.code}): ${error.message}`);
    this.name = 'ToolCallError';
    this.error = error;
    this.meta = meta;
  }
}

export function failure(code: ToolErrorCode, message: string, extra: Partial<ToolError> = {}): ToolFailure {
  return new ToolFailure({ code, message, retryable: false, ...extra });
}

/** What a thrown value says: its message, or the value itself (`null`, a string). */
export function thrownMessage(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

/**
 * A throw inside the harness that the call's input did not cause (a dependency without an API
 * the package calls, a defect of the package): never the caller's fault, so never
 * `invalid_params`. The message names the step and the cause.
 */
export function internalFailure(during: string, error: unknown): ToolFailure {
  return failure(
    'internal',
    `internal error while ${during}: ${thrownMessage(error)} (a fault of flowblocks or of a package it runs with, not of the call's input)`,
  );
}

export function codeForStatus(status: number): ToolErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 408:
      return 'timeout';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 429:
      return 'rate_limited';
    default:
      return status >= 500 ? 'upstream_error' : 'bad_request';
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The service's own words: `error`, `message`, `error.message`, or the text body. */
export function serviceMessage(response: HttpResponse): string | undefined {
  if (typeof response.body === 'string') return response.body.trim() || undefined;
  const body = asRecord(response.body);
  if (!body) return undefined;
  for (const key of ['error', 'message', 'detail', 'error_description']) {
    const value = body[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
    const nested = asRecord(value);
    if (nested && typeof nested.message === 'string') return nested.message;
  }
  return undefined;
}

/** Field errors a service lists (`details` / `errors` / `issues`, as strings or `{path|field, message}`). */
export function serviceIssues(response: HttpResponse): ToolIssue[] | undefined {
  const body = asRecord(response.body);
  if (!body) return undefined;
  const list = [body.details, body.errors, body.issues].find(Array.isArray) as unknown[] | undefined;
  if (!list || list.length === 0) return undefined;
  return list.map((item) => {
    if (typeof item === 'string') return { path: '', message: item };
    const entry = asRecord(item) ?? {};
    const rawPath = entry.path ?? entry.field ?? entry.param ?? '';
    const path = Array.isArray(rawPath) ? rawPath.join('.') : String(rawPath);
    const message = typeof entry.message === 'string' ? entry.message : JSON.stringify(item);
    return { path, message };
  });
}

/** Normalizes a non-2xx response into a `ToolError` with the service's message. */
export function errorFromResponse(response: HttpResponse, retryable: boolean, retryAfterMs?: number): ToolError {
  // A web page (a load balancer's 502, a login page) is not the service's words: it is named, not quoted.
  const message = isWebPage(response.headers['content-type'])
    ? `HTTP ${response.status}: the answer is a web page (text/html), not the service's API: a proxy or gateway answered, or the base URL is wrong`
    : (serviceMessage(response) ?? `HTTP ${response.status}`);
  const error: ToolError = { code: codeForStatus(response.status), message, status: response.status, retryable };
  if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
  const issues = serviceIssues(response);
  if (issues) error.issues = issues;
  return error;
}
