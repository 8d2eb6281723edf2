import { join } from 'node:path';
import { Notifier } from '../../notifications/notifier.js';
import { parseSettings, SettingsError } from '../../notifications/settings.js';
import { jsonFileStore } from '../../notifications/store.js';
import type { NotificationState } from '../../notifications/state.js';
import type { Limits } from '../../notifications/payload.js';
import { badRequest } from './errors.js';
import type { ExecutionRecord } from './runner.js';

/** How often the `no_activity` rule is checked: well under its smallest window (1 h). */
const INACTIVITY_CHECK_MS = 60_000;

interface Running {
  notifier: Notifier;
  stop: AbortController;
}

/**
 * Completion notifications and alert rules, per workspace, through `src/notifications`:
 * one Notifier per configured workspace, its deliveries sent on the spec's schedule.
 */
export class WorkspaceNotifications {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly options: { dataDir?: string; endpoints: Record<string, string>; log: (line: string) => void },
  ) {}

  /** Replaces a workspace's settings; invalid ones are a 400 naming each field. */
  configure(workspaceId: string, input: unknown): void {
    let settings;
    try {
      settings = parseSettings(input);
    } catch (error) {
      if (error instanceof SettingsError) throw badRequest(error.issues);
      throw error;
    }
    this.remove(workspaceId);
    const store = this.options.dataDir
      ? jsonFileStore<NotificationState>(join(this.options.dataDir, `notifications-${workspaceId}.json`))
      : undefined;
    const notifier = new Notifier({
      settings,
      endpoints: this.options.endpoints,
      log: (line) => this.options.log(`notifications ${workspaceId}: ${line}`),
      ...(store ? { store } : {}),
    });
    const stop = new AbortController();
    // Deliveries on the spec's schedule, and the no_activity check on a timer, until removed.
    void notifier.run(stop.signal, { inactivityCheckMs: INACTIVITY_CHECK_MS });
    this.running.set(workspaceId, { notifier, stop });
  }

  remove(workspaceId: string): boolean {
    const running = this.running.get(workspaceId);
    if (!running) return false;
    running.stop.abort();
    this.running.delete(workspaceId);
    return true;
  }

  /** Hands a finished execution to its workspace's notifier, if it has one. */
  completed(record: ExecutionRecord, limits: Limits): void {
    const notifier = this.running.get(record.workspaceId)?.notifier;
    if (!notifier) return;
    const { id, workflowId, executionId, level, trigger, startedAt, endedAt, totalDurationMs, files } = record;
    notifier.executionCompleted(
      {
        id,
        workflowId,
        executionId,
        level,
        trigger,
        startedAt,
        endedAt,
        totalDurationMs,
        files,
        cost: { ...record.cost },
        executionData: { traceSpans: record.traceSpans, finalOutput: record.finalOutput },
      },
      limits,
    );
  }

  deliveries(workspaceId: string) {
    return this.running.get(workspaceId)?.notifier.state.queue;
  }

  close(): void {
    for (const id of [...this.running.keys()]) this.remove(id);
  }
}
