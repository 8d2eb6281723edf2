import type { Dispatcher } from 'undici';
import { sharedDispatcher } from '../../harness/send/dispatcher.js';
import { buildTargets } from './channels/index.js';
import { systemClock, type Clock } from './clock.js';
import { buildCompletedEvent, completedLog, type CompletedEvent, type ExecutionLog, type Limits } from './payload.js';
import { DeliveryQueue, replayProgress, type Delivery, type DeliveryProgress, type Target } from './queue.js';
import { RuleEngine, type FiredRule } from './rule-engine.js';
import type { NotificationSettings } from './settings.js';
import { loadState, type NotificationState } from './state.js';
import { memoryStore, type StateStore } from './store.js';
import { escapedLog } from './log-line.js';

export interface NotifierOptions {
  settings: NotificationSettings;
  /**
   * Where the state lives; in memory by default (use `jsonFileStore` to survive restarts).
   * A store with a journal gets one entry per delivery attempt's start and end; without one,
   * the whole state is saved at each.
   */
  store?: StateStore<NotificationState>;
  clock?: Clock;
  /** undici dispatcher for webhook, chat and e-mail calls (a MockAgent in tests). */
  dispatcher?: Dispatcher;
  /** Receives one readable line per delivery attempt and alert. Secrets never reach it. */
  log?: (line: string) => void;
  /** Jitter source, for tests. */
  random?: () => number;
  /** Time limit of one delivery attempt; 30 s by default. */
  timeoutMs?: number;
  /** Replaces the targets derived from the settings' channels. */
  targets?: Target[];
  /** Base-URL overrides for the tools channels use (`{ loops: … }`). */
  endpoints?: Record<string, string>;
}

/**
 * Turns completed executions into deliveries: filters by the settings, applies the alert
 * rules, builds the payload, queues one delivery per target and sends them on schedule.
 * Used by the sandbox's workflow host and by `flowblocks monitor`.
 */
export class Notifier {
  readonly settings: NotificationSettings;
  readonly state: NotificationState;
  readonly queue: DeliveryQueue;
  readonly rules: RuleEngine | undefined;
  readonly clock: Clock;
  /** The delivery targets by key (what a delivery's `target` names). */
  readonly targetMap: ReadonlyMap<string, Target>;
  /** Deliveries this process gave up (not retryable, or the schedule used up): `monitor --once` exits 1 on any. */
  givenUp = 0;
  private readonly store: StateStore<NotificationState>;
  private readonly targets: Target[];
  private readonly log: (line: string) => void;
  private wake: (() => void) | undefined;
  /** Inside `batch`: saves are deferred to its end, and so are log lines, so none tells of an unsaved change. */
  private deferred: string[] | undefined;

  constructor(options: NotifierOptions) {
    this.settings = options.settings;
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? memoryStore<NotificationState>();
    this.log = escapedLog(options.log);
    this.state = loadState(this.store, this.clock.now());
    const journal = this.store.journal?.();
    if (journal && (journal.events.length > 0 || journal.torn)) {
      // Compacted at start: the attempts journaled since the last save go into the state
      // file (written atomically) and the journal, torn last line and all, is emptied.
      replayProgress(this.state.queue, journal.events as DeliveryProgress[]);
      this.store.save(this.state);
    }
    const dispatcher = options.dispatcher ?? sharedDispatcher();
    this.targets = options.targets ?? buildTargets(this.settings.channels, { dispatcher, now: () => this.clock.now(), endpoints: options.endpoints });
    this.targetMap = new Map(this.targets.map((t) => [t.key, t]));
    this.rules = this.settings.alertRules ? new RuleEngine(this.settings.alertRules, this.state.rules) : undefined;
    this.queue = new DeliveryQueue({
      state: this.state.queue,
      record: this.store.append ? (progress: DeliveryProgress) => this.store.append?.(progress) : () => this.save(),
      targets: this.targetMap,
      clock: this.clock,
      log: this.log,
      random: options.random,
      timeoutMs: options.timeoutMs,
      onGivenUp: () => this.deliveryGivenUp(),
    });
  }

  /** Counts a delivery given up, by this queue or another runner of the notifier's deliveries (BullMQ). */
  deliveryGivenUp(): void {
    this.givenUp++;
  }

  /** Writes the whole state at once (at the end of the batch, inside one). */
  save(): void {
    if (!this.deferred) this.store.save(this.state);
  }

  /** Waits until every save so far is durable (a no-op for stores that write at once). */
  async flush(): Promise<void> {
    await this.store.flush?.();
  }

  /**
   * Runs `work` (synchronous) with one save at its end instead of one per execution, then
   * logs what it did. A crash before that save loses the batch's evaluations as a whole.
   */
  batch<T>(work: () => T): T {
    if (this.deferred) return work();
    const lines: string[] = [];
    this.deferred = lines;
    let result: T;
    try {
      result = work();
    } finally {
      this.deferred = undefined;
    }
    this.save();
    lines.forEach((line) => this.log(line));
    return result;
  }

  /** Logs a line now, or after the batch's save. */
  emit(line: string): void {
    if (this.deferred) this.deferred.push(line);
    else this.log(line);
  }

  /** Whether the settings' workflow, level and trigger filters let this execution through. */
  matches(log: ExecutionLog): boolean {
    const s = this.settings;
    if (!s.allWorkflows && !s.workflowIds?.includes(log.workflowId)) return false;
    return (s.levelFilter as string[]).includes(log.level) && (s.triggerFilter as string[]).includes(log.trigger);
  }

  /**
   * Evaluates one completed execution and queues its deliveries; returns them. Takes a
   * `workflow_list_logs` entry or a `workflow_get_log` output's `data` as it is; one still running (no
   * `endedAt`) queues nothing. Synchronous from the rules to the save, so concurrent
   * completions cannot both claim a cool-down.
   */
  executionCompleted(entry: ExecutionLog, limits?: Limits): Delivery[] {
    const log = completedLog(entry);
    if (!log) return [];
    if (!this.matches(log)) {
      this.save();
      return [];
    }
    const now = this.clock.now();
    let fired: FiredRule[] = [];
    if (this.rules) {
      fired = this.rules.completed(log, now);
      if (fired.length === 0) {
        this.save();
        return [];
      }
      this.emit(`alert ${fired.map((f) => f.rule).join(', ')} on workflow ${log.workflowId} execution ${log.executionId}: ${fired.map((f) => f.reason).join('; ')}`);
    }
    return this.enqueueEvent(buildCompletedEvent(log, this.settings, now, limits), fired);
  }

  /** The `no_activity` timer check: queues an alert per idle workflow whose cool-down allows it. */
  checkInactivity(): Delivery[] {
    if (!this.rules) return [];
    const now = this.clock.now();
    const workflows = this.settings.workflowIds ?? this.rules.knownWorkflows();
    const created: Delivery[] = [];
    for (const { workflowId, fired } of this.rules.inactive(workflows, now)) {
      this.emit(`alert no_activity on workflow ${workflowId}: ${fired.reason}`);
      created.push(...this.enqueueEvent(inactivityEvent(workflowId, now), [fired]));
    }
    if (created.length === 0) this.save();
    return created;
  }

  /** Sends every delivery that is due now, then folds the attempts' journal into the state file. */
  async deliverDue(): Promise<number> {
    const count = await this.queue.runDue();
    this.save();
    return count;
  }

  /**
   * Sends deliveries as they fall due, until the signal aborts. Batches are not waited for
   * before the next one starts, so a receiver that hangs for its 30 s does not hold back
   * deliveries to the others; a finished batch wakes the loop to schedule its retries.
   */
  async runDeliveries(signal: AbortSignal): Promise<void> {
    const batches = new Set<Promise<void>>();
    let pausedUntil = 0;
    while (!signal.aborted) {
      if (this.clock.now() >= pausedUntil) {
        const { count, done } = this.queue.startDue();
        if (count > 0) {
          const batch: Promise<void> = done.then(
            () => {
              batches.delete(batch);
              this.wake?.(); // its retries have new due times
            },
            (error: unknown) => {
              batches.delete(batch);
              // An attempt could not be recorded (disk full, say), so it was not sent. Waiting
              // keeps the loop from spinning on it.
              pausedUntil = this.clock.now() + 5_000;
              this.log(`deliveries paused for 5 s: ${(error as Error).message}`);
              this.wake?.();
            },
          );
          batches.add(batch);
        }
      }
      const now = this.clock.now();
      const next = this.queue.nextDueAt();
      const waitMs = next === undefined ? 60_000 : Math.min(60_000, Math.max(pausedUntil - now, next - now));
      await this.waitOrWake(waitMs, signal);
    }
    await Promise.all(batches);
    // A clean stop leaves the whole state in the state file, the journal folded into it.
    this.save();
  }

  /**
   * For a host that reports completions itself (the sandbox): sends deliveries as they fall
   * due and checks `no_activity` on a timer, until the signal aborts.
   */
  async run(signal: AbortSignal, options: { inactivityCheckMs?: number } = {}): Promise<void> {
    const every = options.inactivityCheckMs ?? 60_000;
    const timer = (async () => {
      while (!signal.aborted) {
        await this.clock.sleep(every, signal).catch(() => {});
        if (!signal.aborted) this.checkInactivity();
      }
    })();
    await Promise.all([this.runDeliveries(signal), timer]);
  }

  private enqueueEvent(event: CompletedEvent, fired: FiredRule[]): Delivery[] {
    const body = JSON.stringify(event);
    const created: Delivery[] = [];
    for (const target of this.targets) {
      const delivery = this.queue.enqueue({
        target: target.key,
        eventId: event.id,
        workflowId: event.data.workflowId,
        executionId: event.data.executionId,
        body,
        reasons: fired.map((f) => f.reason),
      });
      if (delivery) created.push(delivery);
    }
    this.save();
    this.wake?.();
    return created;
  }

  private async waitOrWake(ms: number, signal: AbortSignal): Promise<void> {
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    this.wake = stop;
    try {
      await this.clock.sleep(ms, controller.signal);
    } catch {
      // Woken by a new delivery or stopped by the caller: either way, look at the queue again.
    } finally {
      this.wake = undefined;
      signal.removeEventListener('abort', stop);
    }
  }
}

/**
 * `no_activity` has no execution to describe. Like the platform did, it is sent as the same
 * event type with a synthetic execution (`inactivity_<ms>`, trigger `system`), so a receiver
 * needs one parser; the reason is in the e-mail and chat text.
 */
export function inactivityEvent(workflowId: string, now: number): CompletedEvent {
  const executionId = `inactivity_${workflowId}_${now}`;
  const at = new Date(now).toISOString();
  return buildCompletedEvent(
    {
      id: executionId,
      workflowId,
      executionId,
      level: 'info',
      trigger: 'system',
      startedAt: at,
      endedAt: at,
      totalDurationMs: 0,
      cost: { total: 0 },
      files: null,
    },
    { includeFinalOutput: false, includeTraceSpans: false, includeRateLimits: false, includeUsageData: false },
    now,
  );
}
