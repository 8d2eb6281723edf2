import type { HarnessEvent } from '../../../harness/types.js';

/** What a progress reporter sends: MCP's `notifications/progress`, relative to the call. */
export interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; message: string };
}

/** How often a call still running says so, when nothing else happened (ms). */
export const DEFAULT_PROGRESS_INTERVAL_MS = 5_000;

/** One line a person reads for a harness event; no URL, header or body, so nothing secret. */
function describe(event: HarnessEvent): string {
  switch (event.type) {
    case 'request':
      return event.attempt > 1 ? `${event.toolId}: request, attempt ${event.attempt}` : `${event.toolId}: request`;
    case 'response':
      return `${event.toolId}: answered ${event.status} in ${Math.round(event.durationMs)} ms`;
    case 'retry':
      return `${event.toolId}: retrying in ${Math.round(event.delayMs)} ms`;
  }
}

/**
 * Progress of one call for a client that asked for it (a `progressToken`): one notification
 * per request, answer and retry the harness reports (a polled job, an ingest's chunks), and
 * one every `intervalMs` while nothing else happens, so a client's time limit that progress
 * resets does not end a long wait. `progress` only grows, as MCP asks; there is no total.
 */
export function progressReporter(
  token: string | number,
  send: (notification: ProgressNotification) => Promise<void>,
  intervalMs: number,
): { logger: (event: HarnessEvent) => void; stop(): void } {
  let progress = 0;
  const notify = (message: string) => {
    progress += 1;
    // A notification that cannot be sent (the client left) changes nothing about the call.
    send({ method: 'notifications/progress', params: { progressToken: token, progress, message } }).catch(() => {});
  };
  const started = Date.now();
  const timer = setInterval(() => notify(`running for ${Math.round((Date.now() - started) / 1000)} s`), intervalMs);
  timer.unref();
  return { logger: (event) => notify(describe(event)), stop: () => clearInterval(timer) };
}
