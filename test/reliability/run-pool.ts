/** Runs `jobs` with at most `limit` in flight; resolves when all have settled. */
export async function runPool<T>(items: readonly T[], limit: number, job: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      await job(items[index]!, index);
    }
  });
  await Promise.all(lanes);
}
