import { failure, errorFromResponse, ToolFailure } from '../errors.js';
import { parseRateLimit } from '../pace/rate-limit.js';
import { attempt as attemptOnce, isFault, type Fault } from './attempt.js';
import { stripUrlCredentials, type Redactor } from '../mask/redact.js';
import { buildRequest, urlWithQuery } from './request.js';
import { isRetryable, retryDelayMs, retrySettings, type AttemptOutcome } from './retry.js';
import { sharedPacer, takeTurn } from '../pace/pacer.js';
import { sleep } from './sleep.js';
import { standInOf } from './stand-in.js';
import type { DispatcherLike, ExecuteOptions, HarnessEvent, HttpRequestSpec, HttpResponse, PacerLike, RateLimitInfo, RetryOptions, Transport } from '../types.js';

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Everything one logical tool call shares across its HTTP attempts. */
export interface CallState {
  toolId: string;
  /** Absent: the shared keep-alive Agent, made on the first undici request. */
  dispatcher?: DispatcherLike;
  transport?: Transport;
  timeoutMs: number;
  maxResponseBytes?: number;
  retry: Required<RetryOptions>;
  /** The tool is read-only or idempotent. */
  toolIsSafe: boolean;
  redactor: Redactor;
  signal?: AbortSignal;
  logger?: (event: HarnessEvent) => void;
  pacer?: PacerLike;
  /** Waits `ms` (retry and poll waits), or rejects when the call's signal aborts. */
  sleep(ms: number): Promise<void>;
  // What meta reports, updated as attempts happen.
  attempts: number;
  status?: number;
  rateLimit?: RateLimitInfo;
}

/** The state of one logical call; its logger sees events only after redaction. */
export function createCallState(toolId: string, toolIsSafe: boolean, options: ExecuteOptions, redactor: Redactor): CallState {
  const logger = options.logger;
  const standIn = standInOf(options.dispatcher);
  const signal = options.signal;
  const standInPacer = standIn?.pacer || undefined;
  return {
    toolId,
    dispatcher: options.dispatcher,
    transport: options.transport,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes,
    retry: retrySettings(options.retry),
    toolIsSafe,
    redactor,
    signal: options.signal,
    logger: logger && ((event) => logger(redactor.value(event))),
    // The caller's pacer wins; then a stand-in's (a mock's own, or none); then the shared one.
    pacer: options.pacer === false ? undefined : (options.pacer ?? (standIn ? standInPacer : sharedPacer())),
    sleep: standIn?.skipWaits ? () => sleep(0, signal) : (ms) => sleep(ms, signal),
    attempts: 0,
  };
}

function faultFailure(fault: Fault, retryable: boolean): ToolFailure {
  return failure(fault.kind, fault.message, { retryable });
}

/**
 * Sends one request through the retry rule: returns the first 2xx response, or throws a
 * `ToolFailure` carrying the real last error (never an undefined).
 */
export async function sendRequest(spec: HttpRequestSpec, state: CallState): Promise<HttpResponse> {
  const building = buildRequest(spec);
  let built = building instanceof Promise ? await building : building;
  const retryCtx = {
    safe: state.toolIsSafe || spec.safeToRetry === true || spec.idempotencyKey !== undefined,
    nothingDoneStatuses: spec.nothingDoneStatuses,
  };
  const logUrl = state.logger ? state.redactor.text(stripUrlCredentials(built.url)) : '';

  for (let attempt = 1; ; attempt++) {
    if (state.signal?.aborted) throw failure('aborted', 'the call was aborted');
    // Most requests ask for no pacing: they skip the await (a tick per call) altogether. A hold
    // longer than a Retry-After we would wait for is not waited for either: it is `rate_limited`.
    const turn =
      spec.pacing && state.pacer ? await takeTurn(state.pacer, spec.pacing, state.signal, state.retry.maxRetryAfterMs) : undefined;
    state.attempts++;
    state.logger?.({ type: 'request', toolId: state.toolId, method: built.method, url: logUrl, attempt });
    const started = performance.now();
    let outcome: AttemptOutcome;
    let failed: ToolFailure;
    try {
      const response = await attemptOnce(built, state);
      turn?.done(response);
      state.status = response.status;
      state.rateLimit = parseRateLimit(response.headers) ?? state.rateLimit;
      state.logger?.({
        type: 'response',
        toolId: state.toolId,
        status: response.status,
        attempt,
        durationMs: Math.round(performance.now() - started),
      });
      if (response.status >= 200 && response.status < 300) {
        const refused = spec.refusal?.(response);
        if (refused) throw new ToolFailure(refused, response, attempt);
        return response;
      }
      outcome = { kind: 'status', status: response.status, headers: response.headers };
      const retryable = isRetryable(outcome, retryCtx);
      const delay = response.status === 429 ? retryDelayMs(attempt, outcome, state.retry) : undefined;
      failed = new ToolFailure(errorFromResponse(response, retryable, delay), response, attempt);
    } catch (fault) {
      turn?.done();
      if (!isFault(fault)) throw fault;
      if (fault.kind === 'aborted') throw faultFailure(fault, false);
      outcome = { kind: fault.kind };
      failed = faultFailure(fault, isRetryable(outcome, retryCtx));
    }

    if (!failed.error.retryable || attempt >= state.retry.maxAttempts) throw failed;
    const delayMs = retryDelayMs(attempt, outcome, state.retry);
    // A service that asks for a longer wait than we allow gets its answer back now.
    if (delayMs > state.retry.maxRetryAfterMs) throw failed;
    if (attempt === 1 && spec.retryQuery) {
      built = { ...built, url: urlWithQuery(spec.url, { ...spec.query, ...spec.retryQuery }) };
      retryCtx.nothingDoneStatuses = spec.retryNothingDoneStatuses ?? spec.nothingDoneStatuses;
    }
    state.logger?.({ type: 'retry', toolId: state.toolId, attempt, delayMs, reason: failed.error.code });
    try {
      await state.sleep(delayMs);
    } catch {
      throw failure('aborted', 'the call was aborted while waiting to retry');
    }
  }
}
