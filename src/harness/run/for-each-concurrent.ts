/**
 * Runs `fn` over the items of a (possibly async) iterable with at most `limit` in flight,
 * pulling the next item only when a slot is free, so a large source is never read ahead.
 * Stops pulling at the first error thrown by `fn` or the source, and rethrows it after the
 * calls in flight have settled.
 */
export async function forEachConcurrent<T>(
  source: Iterable<T> | AsyncIterable<T>,
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failed: { error: unknown } | undefined;
  try {
    for await (const item of source) {
      const task: Promise<void> = fn(item)
        .catch((error: unknown) => {
          failed ??= { error };
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= limit) await Promise.race(inFlight);
      if (failed) break;
    }
  } catch (error) {
    failed ??= { error };
  }
  await Promise.all(inFlight);
  if (failed) throw failed.error;
}
