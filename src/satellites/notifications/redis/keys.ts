import { createHash } from 'node:crypto';

/**
 * The Redis keys of one watched workspace. Monitors of the same workspace share them (and so
 * one lease); the workspace and base URL are hashed, so no id from outside becomes a key.
 */
export interface MonitorKeys {
  /** `SET NX PX` with the holder's random owner id. */
  lease: string;
  /** `INCR` on each acquisition: the fencing token every write is checked against. */
  fence: string;
  /** The state document (watermark, rules, the outbox of deliveries not yet handed to BullMQ). */
  state: string;
  /** BullMQ's prefix and queue name for the deliveries. */
  bullPrefix: string;
  queueName: string;
}

export function monitorKeys(baseUrl: string, workspaceId: string): MonitorKeys {
  const ns = createHash('sha256').update(`${new URL(baseUrl).origin}\n${workspaceId}`).digest('hex').slice(0, 16);
  const base = `flowblocks:monitor:${ns}`;
  return { lease: `${base}:lease`, fence: `${base}:fence`, state: `${base}:state`, bullPrefix: 'flowblocks', queueName: `monitor-${ns}-deliveries` };
}
