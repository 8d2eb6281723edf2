import type { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { DELIVERY_TIMEOUT_MS, MAX_ATTEMPTS } from '../delivery-retry.js';
import type { DeliveryRunner } from '../delivery-runner.js';
import type { Notifier } from '../notifier.js';
import type { Delivery } from '../queue.js';
import { attemptDelivery, jobData, specBackoff, type DeliveryJobData } from './delivery-job.js';
import type { MonitorKeys } from './keys.js';
import type { Lease } from './lease.js';
import type { BullMq } from './load.js';
import { pause, troubleLog, untilAborted } from './once-logger.js';
import type { RedisStateStore } from './state-store.js';

/** Finished jobs are kept a day (as the file queue remembers finished deliveries), so a re-enqueued event is not sent again. */
const KEEP_FINISHED_S = 24 * 3600;
const CONCURRENCY = 8;

export interface BullDeliveriesOptions {
  bullmq: BullMq;
  /** BullMQ's connection (no per-request retry limit, as its workers require). */
  connection: Redis;
  keys: MonitorKeys;
  lease: Lease;
  store: RedisStateStore;
  notifier: Notifier;
  leaseMs: number;
  log(line: string): void;
  timeoutMs?: number;
  random?: () => number;
}

/**
 * The Redis store's deliveries, on BullMQ. The notifier queues a delivery into its state
 * document (the outbox); once a fenced write has put it in Redis, it is added to BullMQ with
 * the delivery id as job id — an id BullMQ already has is not added again, so the same
 * execution evaluated again after a takeover is not sent twice — and dropped from the outbox.
 *
 * Only the lease holder runs the Worker. Its jobs' locks last as long as the lease, so when
 * a holder dies its jobs in flight are found stalled by the next holder's Worker and sent
 * again (the only re-sends a takeover makes). Before each attempt the lease is checked:
 * a holder whose lease may have expired moves the job back to wait unattempted.
 */
export class BullDeliveries implements DeliveryRunner {
  private readonly queue: Queue<DeliveryJobData>;
  private handing: Promise<void> = Promise.resolve();

  constructor(private readonly options: BullDeliveriesOptions) {
    const { bullmq, connection, keys, store, notifier } = options;
    this.queue = new bullmq.Queue<DeliveryJobData>(keys.queueName, { connection, prefix: keys.bullPrefix });
    this.queue.on('error', () => {}); // failures reach the callers; an unheard 'error' event would throw
    store.onCommit = (outbox) => this.hand(outbox);
    // Left in the outbox by a holder that died between its write and the hand-over.
    this.hand(notifier.state.queue.deliveries.filter((d) => d.state === 'pending'));
  }

  /** `--once`: hands the outbox over, then sends what is due now; jobs waiting for a retry wait for the next run. */
  async deliverDue(): Promise<number> {
    await this.settled();
    const worker = this.worker();
    let count = 0;
    worker.on('completed', () => count++);
    worker.on('failed', () => count++);
    const lost = this.options.lease.lost;
    for (;;) {
      // BullMQ's connection waits for Redis rather than fail: the lease, lost once Redis has been away a lease time, ends the wait.
      const counts = await untilAborted(this.queue.getJobCounts('wait', 'active', 'prioritized'), lost).catch((error: unknown) => {
        if (lost.aborted) return undefined;
        throw error;
      });
      if (!counts || (counts.wait ?? 0) + (counts.active ?? 0) + (counts.prioritized ?? 0) === 0 || lost.aborted) break;
      await pause(100, lost);
    }
    await worker.close(this.options.lease.lost.aborted);
    await this.settle();
    return count;
  }

  /** Runs the Worker until `signal` aborts: a clean stop waits for the attempts in flight, a lost lease does not. */
  async runDeliveries(signal: AbortSignal): Promise<void> {
    const worker = this.worker();
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    // Lost lease: force, so closing waits for no attempt (what is in flight was sent already).
    await worker.close(this.options.lease.lost.aborted);
    await this.settle();
    await this.queue.close();
  }

  /**
   * Resolves once no hand-over is in flight or queued: each one has added its jobs and
   * dropped them from the outbox, logged its failure, or given up on a lost lease. One
   * chained while waiting is waited for too. It never rejects. For a caller (a test) that
   * must know every commit so far was handed over, or that none was, before it looks.
   */
  async settled(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.handing;
      await current;
    } while (current !== this.handing);
  }

  /** Waits for the hand-over and the write that empties the outbox (a lost lease leaves both to the next holder). */
  private async settle(): Promise<void> {
    await this.settled();
    await this.options.store.flush().catch(() => {});
  }

  private hand(outbox: Delivery[]): void {
    if (outbox.length === 0) return;
    // One hand-over at a time, in commit order; a failure must not stop the ones after it.
    this.handing = this.handing
      .then(() => this.add(outbox))
      .catch((error: unknown) => this.options.log(`deliveries could not be queued: ${(error as Error).message}; the next holder queues them from the outbox`));
  }

  private async add(outbox: Delivery[]): Promise<void> {
    const { lease, notifier, log } = this.options;
    const trouble = troubleLog(log, 'Redis unreachable: deliveries wait to be queued');
    const jobs = () =>
      outbox.map((d) => ({
        name: 'delivery',
        data: jobData(d),
        opts: {
          jobId: d.id,
          attempts: MAX_ATTEMPTS,
          backoff: { type: 'spec' },
          removeOnComplete: { age: KEEP_FINISHED_S },
          removeOnFail: { age: KEEP_FINISHED_S },
        },
      }));
    while (!lease.lost.aborted) {
      try {
        // As in deliverDue: addBulk waits for Redis forever, the lease does not.
        await untilAborted(this.queue.addBulk(jobs()), lease.lost);
        trouble.ok();
        break;
      } catch (error) {
        if (lease.lost.aborted) break;
        trouble.failed(error);
        await pause(500, lease.lost);
      }
    }
    if (lease.lost.aborted) return; // the next holder hands them over from its outbox
    const handed = new Set(outbox.map((d) => d.id));
    notifier.state.queue.deliveries = notifier.state.queue.deliveries.filter((d) => !handed.has(d.id));
    notifier.save();
  }

  private worker(): Worker<DeliveryJobData> {
    const { bullmq, connection, keys, lease, leaseMs, notifier, log } = this.options;
    const random = this.options.random ?? Math.random;
    const deps = { bullmq, targets: notifier.targetMap, timeoutMs: this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS, now: () => Date.now(), random, log, givenUp: () => notifier.deliveryGivenUp() };
    const worker = new bullmq.Worker<DeliveryJobData>(
      keys.queueName,
      async (job: Job<DeliveryJobData>, token?: string) => {
        if (!lease.valid()) {
          // Not ours to send any more: back to wait, no attempt counted.
          await job.moveToWait(token);
          throw new bullmq.WaitingError();
        }
        await attemptDelivery(job, deps);
      },
      {
        connection,
        prefix: keys.bullPrefix,
        concurrency: CONCURRENCY,
        lockDuration: leaseMs,
        stalledInterval: Math.max(500, Math.round(leaseMs / 2)),
        // A delivery whose holders keep dying is given up after as many tries as the schedule has.
        maxStalledCount: MAX_ATTEMPTS,
        settings: { backoffStrategy: specBackoff },
      },
    );
    const trouble = troubleLog(log, 'delivery worker');
    worker.on('error', (error) => trouble.failed(error));
    worker.on('active', () => trouble.ok());
    worker.on('stalled', (id) => log(`delivery ${id} was in flight at a monitor that stopped: sending it again`));
    worker.on('failed', (job, error) => {
      if (job && error.message.includes('stalled more than allowable limit')) {
        log(`delivery ${job.id}: its monitors stopped during ${MAX_ATTEMPTS} attempts, giving up`);
        notifier.deliveryGivenUp();
      }
    });
    return worker;
  }
}
