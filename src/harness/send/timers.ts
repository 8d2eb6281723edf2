/**
 * The harness's clock: every timer it starts goes through here. The n8n community package
 * swaps this file for one over n8n-workflow's `sleep` (n8n Cloud refuses a node that calls
 * `setTimeout` itself); everywhere else it is Node's timers.
 */

/** A started timer: `cancel` stops it (a second call does nothing). */
export interface Timer {
  cancel(): void;
}

/**
 * Runs `fn` after `ms` (at most a timer's range, which callers clamp). A `background` timer does
 * not keep the process alive (the pacer's idle clean-up).
 */
export function startTimer(fn: () => void, ms: number, background = false): Timer {
  const handle = setTimeout(fn, ms);
  if (background) handle.unref?.();
  return { cancel: () => clearTimeout(handle) };
}

/** Resolves on the next turn of the event loop, after pending I/O. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
