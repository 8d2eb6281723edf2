/**
 * What sends the deliveries a notifier queues: the notifier's own file-backed queue, or
 * BullMQ with the Redis store. `flowblocks monitor` drives either through this.
 */
export interface DeliveryRunner {
  /** Sends what is due now and resolves when those attempts are done (`--once`). */
  deliverDue(): Promise<number>;
  /** Sends deliveries as they fall due until the signal aborts. */
  runDeliveries(signal: AbortSignal): Promise<void>;
}
