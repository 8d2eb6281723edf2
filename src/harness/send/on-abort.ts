/**
 * One `abort` listener per signal, however many calls share it: a signal handed to more
 * than ten concurrent calls would otherwise carry a listener per call (and per wait), and
 * Node prints `MaxListenersExceededWarning`.
 */
const callbacks = new WeakMap<AbortSignal, { listener: () => void; set: Set<() => void> }>();

/** Runs `callback` once when `signal` aborts; returns the function that stops listening. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let entry = callbacks.get(signal);
  if (!entry) {
    const set = new Set<() => void>();
    const listener = () => {
      callbacks.delete(signal);
      for (const fn of [...set]) fn();
    };
    entry = { listener, set };
    callbacks.set(signal, entry);
    signal.addEventListener('abort', listener, { once: true });
  }
  // A callback of its own, so the same function registered twice is two registrations.
  const own = () => callback();
  entry.set.add(own);
  return () => {
    const current = callbacks.get(signal);
    if (!current?.set.delete(own) || current.set.size > 0) return;
    callbacks.delete(signal);
    signal.removeEventListener('abort', current.listener);
  };
}
