/** The state of a fixed-window limit after one request. */
export interface WindowDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1 while a window is open). */
  resetSeconds: number;
}

/**
 * A fixed-window counter per key: Tinybird's Events API and Loops' 10-per-second limit
 * both count requests in windows of fixed length.
 */
export function windowLimiter(limit: number, windowMs: number, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key: string): WindowDecision {
      const t = now();
      let window = windows.get(key);
      if (!window || t - window.start >= windowMs) {
        window = { start: t, count: 0 };
        windows.set(key, window);
      }
      const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - t) / 1000));
      if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
      window.count++;
      return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
    },
  };
}
