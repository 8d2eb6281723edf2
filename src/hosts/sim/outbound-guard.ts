/**
 * Sim's outbound policy as the harness's transport: every attempt of every adapted tool is
 * checked by Sim's `validateUrlWithDNS` (private, link-local and, on hosted Sim, loopback
 * addresses refused) and sent by Sim's `createPinnedFetch` to the address that check resolved,
 * so a DNS answer that changes between the check and the connection cannot move the call.
 * A fork hands both functions in (`toSimTools({ guard })`, docs/engines.md); the package
 * imports nothing of Sim's.
 */
import { failure } from '../../harness/errors.js';
import type { Transport } from '../../harness/types.js';

/** What Sim's `validateUrlWithDNS` resolves with (its `AsyncValidationResult`). */
export interface SimUrlCheck {
  isValid: boolean;
  error?: string;
  resolvedIP?: string;
}

/** The request the pinned fetch is given: redirects are answered, never followed. */
export interface SimGuardedInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  signal: AbortSignal;
  redirect: 'manual';
}

/** The part of a fetch `Response` the transport reads. */
export interface SimGuardedAnswer {
  status: number;
  headers: { forEach(callback: (value: string, name: string) => void): void };
  body: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> } } | null;
}

/** Sim's two functions, from `@/lib/core/security/input-validation.server`, passed as they are. */
export interface SimOutboundGuard {
  validateUrlWithDNS: (url: string, paramName: string) => Promise<SimUrlCheck>;
  createPinnedFetch: (resolvedIP: string) => (url: string, init: SimGuardedInit) => Promise<SimGuardedAnswer>;
}

/** The harness's transport through Sim's guard: each attempt checked, pinned and sent without following a redirect. */
export function simGuardedTransport(guard: SimOutboundGuard): Transport {
  return async ({ method, url, headers, body, signal }) => {
    // Checked on every attempt, so a retry is judged by the address its host resolves to then.
    const check = await guard.validateUrlWithDNS(url, 'toolUrl');
    if (!check.isValid || !check.resolvedIP) {
      // Sim's own words (they name the param, never the URL or a header); the policy's refusal is final, not a network fault to retry.
      throw failure('forbidden', `Sim's outbound policy refused the request: ${check.error ?? 'no address to pin'}`);
    }
    const fetchPinned = guard.createPinnedFetch(check.resolvedIP);
    // A 3xx comes back as the answer (the harness fails it): no credential header travels to a redirect's target.
    const answer = await fetchPinned(url, { method, headers, signal, redirect: 'manual', ...(body === undefined ? {} : { body: ownBytes(body) }) });
    const answerHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => (answerHeaders[name] = value));
    return { status: answer.status, headers: answerHeaders, body: answer.body ? chunksOf(answer.body) : new Uint8Array(0) };
  };
}

/** A string as is; bytes copied onto an `ArrayBuffer` of their own, which fetch's body type asks for. */
function ownBytes(body: string | Uint8Array): string | Uint8Array<ArrayBuffer> {
  return typeof body === 'string' ? body : new Uint8Array(body);
}

/** A web stream as the chunks the harness reads; stopping early (cap, time limit) cancels the stream. */
async function* chunksOf(body: NonNullable<SimGuardedAnswer['body']>): AsyncIterable<Uint8Array> {
  const reader = body.getReader();
  let done = false;
  try {
    while (!done) {
      const next = await reader.read();
      done = next.done;
      if (next.value) yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
}
