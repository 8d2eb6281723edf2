/** Logs a trouble once when it starts and once when it is over, not at every retry. */
export function troubleLog(log: (line: string) => void, what: string) {
  let since: number | undefined;
  return {
    failed(error: unknown) {
      if (since !== undefined) return;
      since = Date.now();
      log(`${what}: ${(error as Error).message || String(error)}; retrying`);
    },
    ok() {
      if (since === undefined) return;
      log(`${what}: recovered after ${((Date.now() - since) / 1000).toFixed(1)} s`);
      since = undefined;
    },
  };
}

/** Waits `ms`, or less if the signal aborts (never rejects). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * `step`, or a rejection with the signal's reason once it aborts, whichever comes first: for
 * a Redis call that may never settle (a client that waits for Redis to come back).
 */
export function untilAborted<T>(step: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    // Always handled: a step that fails after the abort is no unhandled rejection.
    step.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
