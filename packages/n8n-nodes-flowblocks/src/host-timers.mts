/**
 * The harness's clock in n8n (built in place of `src/harness/send/timers.ts`): every timer is a wait
 * on n8n-workflow's own `sleep`, cancelled through an AbortSignal, as n8n Cloud asks of a node.
 */
import type { startTimer as nodeStartTimer, nextTurn as nodeNextTurn, Timer } from '../../../src/harness/send/timers.js';
import { hostWorkflow } from './host-workflow.mjs';

type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

let wait: Wait | undefined;

/** n8n-workflow 1.x and early 2.x have `sleepWithAbort`; later ones take the signal in `sleep` itself. */
function hostWait(): Wait {
  if (wait) return wait;
  const host = hostWorkflow() as unknown as { sleep: Wait; sleepWithAbort?: Wait };
  return (wait = host.sleepWithAbort ?? host.sleep);
}

export const startTimer: typeof nodeStartTimer = (fn, ms) => {
  const cancelled = new AbortController();
  // A host whose `sleep` ignores the signal still never runs a cancelled timer's function.
  hostWait()(ms, cancelled.signal).then(
    () => cancelled.signal.aborted || fn(),
    () => undefined,
  );
  return { cancel: () => cancelled.abort() } satisfies Timer;
};

export const nextTurn: typeof nodeNextTurn = () => hostWait()(0);
