import { initialRulesState, type RulesState } from './rule-engine.js';
import type { QueueState } from './queue.js';
import type { StateStore } from './store.js';
import type { WatermarkState } from './watermark.js';

/**
 * Everything that must survive a restart, in one document so that one atomic write covers
 * an execution's evaluation, its deliveries and the watermark that marks it as seen.
 */
export interface NotificationState {
  version: 1;
  rules: RulesState;
  queue: QueueState;
  /** Only the log monitor keeps one. */
  watermark?: WatermarkState;
}

export function loadState(store: StateStore<NotificationState>, now: number): NotificationState {
  const loaded = store.load();
  if (loaded === undefined) return { version: 1, rules: initialRulesState(now), queue: { deliveries: [] } };
  if (loaded.version !== 1) throw new Error(`unsupported notification state version ${String(loaded.version)}`);
  return loaded;
}
