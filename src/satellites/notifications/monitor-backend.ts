import type { DeliveryRunner } from './delivery-runner.js';
import type { Notifier } from './notifier.js';
import type { NotificationState } from './state.js';
import type { StateStore } from './store.js';

/**
 * Where `flowblocks monitor` keeps its state and who may act on it: a data directory with a
 * lock file (one machine), or Redis with a lease (several machines, one active).
 */
export interface MonitorBackend {
  /** Where the state is, safe to log (no password). */
  readonly description: string;
  /**
   * Waits until this process may act (`wait: false`: refuses at once when another does);
   * undefined when `signal` aborted first. Throws when it cannot act at all.
   */
  acquire(signal: AbortSignal, options: { wait: boolean }): Promise<MonitorSession | undefined>;
  /** Closes connections; after the last session ended. */
  close(): Promise<void>;
}

/** One stretch of acting on the state: from taking the lock or lease to giving it up. */
export interface MonitorSession {
  readonly store: StateStore<NotificationState>;
  /** Aborts when this process must stop acting (the lease was lost); never for a file lock. */
  readonly lost: AbortSignal;
  /** What sends the notifier's deliveries for this session. */
  deliveries(notifier: Notifier): DeliveryRunner;
  /** Gives the lock or lease up. */
  end(): Promise<void>;
}
