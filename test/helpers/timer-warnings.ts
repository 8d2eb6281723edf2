/** Records the `TimeoutOverflowWarning`s Node emits (a timer asked for more than 2³¹−1 ms) until `stop()`. */
export function watchTimerWarnings() {
  const seen: string[] = [];
  const listener = (warning: Error) => {
    if (warning.name === 'TimeoutOverflowWarning') seen.push(warning.message);
  };
  process.on('warning', listener);
  return {
    seen,
    /** Warnings are emitted on a later tick: let them arrive before looking. */
    settle: () => new Promise((resolve) => setTimeout(resolve, 5)),
    stop: () => process.off('warning', listener),
  };
}
