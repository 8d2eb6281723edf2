/** How often a server command checks that the process which started it is still there. */
const PARENT_CHECK_MS = 500;

/**
 * Resolves when the serving command should stop: Ctrl-C (SIGINT), SIGTERM, or its parent
 * process gone. `npx` does not pass a SIGTERM on: killed, it leaves our process behind,
 * re-parented (to init or a subreaper), with its ports held. So we watch our parent id and
 * stop when it changes, as we would on SIGTERM. Started by init itself (a container's entry
 * point, ppid 1 or 0), there is no parent to outlive. Resolves with what stopped it.
 */
export function untilStopped(): Promise<'signal' | 'parent-gone'> {
  return new Promise((resolve) => {
    const parent = process.ppid;
    const done = (why: 'signal' | 'parent-gone') => {
      clearInterval(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(why);
    };
    const onSignal = () => done('signal');
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const timer = setInterval(() => {
      if (parent > 1 && process.ppid !== parent) done('parent-gone');
    }, PARENT_CHECK_MS);
    // The servers keep the process alive; this check alone must not.
    timer.unref();
  });
}
