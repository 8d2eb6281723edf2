import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import listLogs from '../../../tools/workflow/list-logs.js';
import { sharedDispatcher } from '../../harness/send/dispatcher.js';
import { runTool } from '../../harness/run/execute.js';
import type { DeliveryRunner } from './delivery-runner.js';
import type { Notifier } from './notifier.js';
import { LogsPacer } from './logs-pacer.js';
import { completedLog, type Limits } from './payload.js';
import { TRIGGERS } from './settings.js';
import { initialWatermark, Watermark } from './watermark.js';
import { escapedLog } from './log-line.js';

type LogPage = z.output<typeof listLogs.output>;

export interface MonitorOptions {
  notifier: Notifier;
  /** The platform's base URL (the logs API is under `/api/v1`). */
  baseUrl: string;
  apiKey: string;
  workspaceId: string;
  dispatcher?: Dispatcher;
  /** Between polls; never shorter than the plan's sustained rate allows. Default 60 s. */
  pollIntervalMs?: number;
  /** How far before the newest evaluated start each poll re-reads. Default 15 min. */
  lookbackMs?: number;
  /** Entries per page. Default 100. */
  pageSize?: number;
  /** Where a first run starts reading (epoch ms); later runs go on from the watermark. Default now. */
  startFrom?: number;
  log?: (line: string) => void;
}

/** The monitor stops on these; anything else is logged and retried at the next poll. */
export class MonitorError extends Error {
  override name = 'MonitorError';
}

const iso = (ms: number) => new Date(ms).toISOString();

const TRANSIENT: ReadonlySet<string> = new Set(['upstream_error', 'timeout', 'network']);
/** Waits before each new try of a page after a passing fault. */
const FAULT_RETRIES_MS = [1_000, 2_000, 4_000];

/**
 * Watches a workspace through `GET /api/v1/logs` (`order=asc`, `startDate`, the cursor) and
 * hands each completed execution to the notifier exactly once, across restarts: the id that
 * marks an execution as evaluated is saved in the same write as its evaluation.
 */
export class LogMonitor {
  private readonly watermark: Watermark;
  private readonly pacer: LogsPacer;
  private readonly log: (line: string) => void;
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: MonitorOptions) {
    const { notifier } = options;
    if (!notifier.state.watermark) {
      const startFrom = options.startFrom ?? notifier.clock.now();
      notifier.state.watermark = initialWatermark(startFrom);
      // Replaying history: the rules have been "watching" since the replay's start.
      notifier.state.rules.since = Math.min(notifier.state.rules.since, startFrom);
    }
    this.watermark = new Watermark(notifier.state.watermark, options.lookbackMs ?? 15 * 60_000);
    this.pacer = new LogsPacer(notifier.clock);
    this.log = escapedLog(options.log);
    this.dispatcher = options.dispatcher ?? sharedDispatcher();
  }

  /** Reads every page since the watermark and evaluates what is new. */
  async pollOnce(signal?: AbortSignal): Promise<{ pages: number; evaluated: number }> {
    const { notifier } = this.options;
    const startDate = iso(this.watermark.startDate(notifier.clock.now()));
    let cursor: string | undefined;
    let pages = 0;
    let evaluated = 0;
    do {
      signal?.throwIfAborted();
      const page = await this.fetchPage(startDate, cursor, signal);
      pages++;
      // One save per page: the page's evaluations, deliveries and watermark land together.
      evaluated += notifier.batch(() => this.evaluatePage(page));
      // A store that writes later (Redis) has the page in before the next is read.
      await notifier.flush();
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    this.watermark.prune(notifier.clock.now());
    notifier.save();
    await notifier.flush();
    this.log(`poll from ${startDate}: ${pages} page(s), ${evaluated} new execution(s), ${notifier.queue.pending().length} delivery(ies) pending`);
    return { pages, evaluated };
  }

  /** Hands the page's new, completed executions to the notifier; returns how many. */
  private evaluatePage(page: LogPage): number {
    const { notifier } = this.options;
    let evaluated = 0;
    for (const entry of page.data) {
      const startedAt = Date.parse(entry.startedAt);
      if (!this.watermark.isNew(entry.id, startedAt)) continue;
      const log = completedLog(entry);
      if (!log) {
        this.watermark.markRunning(entry.id, startedAt);
        continue;
      }
      this.watermark.markSeen(entry.id, startedAt);
      const deliveries = notifier.executionCompleted(log, page.limits as Limits | undefined);
      evaluated++;
      notifier.emit(
        `execution ${log.executionId} workflow ${log.workflowId} ${log.level} ${log.trigger} ${log.totalDurationMs} ms: ${deliveries.length} ${deliveries.length === 1 ? 'delivery' : 'deliveries'} queued`,
      );
    }
    return evaluated;
  }

  /**
   * One poll, the inactivity check and the due deliveries (`--once`); or all of it until
   * aborted. `deliveries` sends what the notifier queues: the notifier itself by default.
   */
  async run(options: { once?: boolean; signal?: AbortSignal; deliveries?: DeliveryRunner } = {}): Promise<void> {
    const { notifier } = this.options;
    const runner = options.deliveries ?? notifier;
    const signal = options.signal ?? new AbortController().signal;
    if (options.once) {
      await this.pollOnce(signal);
      notifier.checkInactivity();
      await notifier.flush();
      await runner.deliverDue();
      return;
    }
    const stopDeliveries = new AbortController();
    const stop = () => stopDeliveries.abort();
    signal.addEventListener('abort', stop, { once: true });
    const deliveries = runner.runDeliveries(stopDeliveries.signal);
    try {
      while (!signal.aborted) {
        try {
          await this.pollOnce(signal);
          notifier.checkInactivity();
        } catch (error) {
          if (signal.aborted || error instanceof MonitorError) throw error;
          this.log(`poll failed: ${(error as Error).message}; trying again at the next poll`);
        }
        const interval = Math.max(this.options.pollIntervalMs ?? 60_000, this.pacer.sustainedGapMs);
        await notifier.clock.sleep(interval, signal).catch(() => {});
      }
    } finally {
      stop();
      signal.removeEventListener('abort', stop);
      await deliveries;
    }
  }

  /** One page, paced, waiting out 429s for as long as the service asks. */
  private async fetchPage(startDate: string, cursor: string | undefined, signal?: AbortSignal): Promise<LogPage> {
    const { notifier } = this.options;
    const settings = notifier.settings;
    const full = settings.includeFinalOutput || settings.includeTraceSpans;
    let faults = 0;
    for (;;) {
      await this.pacer.beforeRequest(signal);
      const result = await runTool(
        listLogs,
        {
          base_url: this.options.baseUrl,
          apiKey: this.options.apiKey,
          workspaceId: this.options.workspaceId,
          // Narrow on the server what the settings would drop anyway.
          workflowIds: settings.workflowIds && settings.workflowIds.length <= 50 ? settings.workflowIds : undefined,
          triggers: settings.triggerFilter.length < TRIGGERS.length ? settings.triggerFilter : undefined,
          level: settings.levelFilter.length === 1 ? settings.levelFilter[0] : undefined,
          startDate,
          cursor,
          order: 'asc',
          limit: this.options.pageSize ?? 100,
          details: full ? 'full' : 'basic',
          includeFinalOutput: settings.includeFinalOutput,
          includeTraceSpans: settings.includeTraceSpans,
        },
        // The monitor does its own waiting (429s, faults), on its own clock.
        { dispatcher: this.dispatcher, signal, retry: false },
      );
      if (result.success) {
        this.pacer.observe(result.meta.rateLimit, result.output.limits?.usage.plan);
        return result.output;
      }
      const { error } = result;
      if (error.code === 'rate_limited') {
        const wait = error.retryAfterMs ?? this.pacer.sustainedGapMs;
        this.pacer.exhausted(wait);
        this.log(`logs API rate limit reached: waiting ${Math.ceil(wait / 1000)} s`);
        continue;
      }
      // 404: the workspace does not exist or the key cannot see it (deployments hide which).
      if (error.code === 'unauthorized' || error.code === 'forbidden' || error.code === 'not_found' || error.code === 'invalid_params') {
        throw new MonitorError(`the logs API refused the monitor (${error.code}): ${error.message}`);
      }
      if (error.code === 'aborted') signal?.throwIfAborted();
      // A passing fault (5xx, time-out, dropped connection) is tried again a few times.
      if (TRANSIENT.has(error.code) && faults < FAULT_RETRIES_MS.length) {
        const wait = FAULT_RETRIES_MS[faults++] as number;
        this.log(`logs API: ${error.status ? `HTTP ${error.status}` : error.code}; trying again in ${wait / 1000} s`);
        await notifier.clock.sleep(wait, signal);
        continue;
      }
      throw new Error(`reading logs failed (${error.code}): ${error.message}`);
    }
  }
}
