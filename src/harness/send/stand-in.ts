import type { PacerLike } from '../types.js';

/**
 * A dispatcher that stands in for the services (the testing kit's `mockServices()`) tells the
 * harness, under this key, how time passes for calls sent through it. `Symbol.for`: a second
 * copy of the package (one bundled, one installed) reads the same key.
 */
export const STAND_IN = Symbol.for('flowblocks.stand-in');

export interface StandIn {
  /** The pacer of calls through it (a mock's own, so tests share no pacing); false: no pacing. */
  pacer: PacerLike | false;
  /** Retry and poll waits pass at once: the attempts are the same, only the clock is not waited for. */
  skipWaits: boolean;
}

/** What a stand-in dispatcher says of itself; undefined for any other dispatcher (undici's, a MockAgent). */
export function standInOf(dispatcher: unknown): StandIn | undefined {
  return typeof dispatcher === 'object' && dispatcher !== null ? ((dispatcher as { [STAND_IN]?: StandIn })[STAND_IN] ?? undefined) : undefined;
}
