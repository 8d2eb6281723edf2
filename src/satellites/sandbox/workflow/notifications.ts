import { join } from 'node:path';
import { Notifier } from '../../notifications/notifier.js';
import { parseSettings, SettingsError } from '../../notifications/settings.js';
import { jsonFileStore, type StateStore } from '../../notifications/store.js';
import type { NotificationState } from '../../notifications/state.js';
import type { Limits } from '../../notifications/payload.js';
import { fileIn, idFileName } from '../files.js';
import { badRequest } from './errors.js';
import type { ExecutionRecord } from './runner.js';

/** How often the `no_activity` rule is checked: well under its smallest window (1 h). */
const INACTIVITY_CHECK_MS = 60_000;

interface Running {
  notifier: Notifier;
  stop: AbortController;
}

/**
 * Completion notifications and alert rules, per workspace, through `src/satellites/notifications`:
 * one Notifier per configured workspace, its deliveries sent on the spec's schedule.
 */
export class WorkspaceNotifications {
  private readonly running = new Map<string, Running>();
  /** Each workspace's settings as given, kept in `dataDir` so a restart resumes them. */
  private readonly configured = new Map<string, unknown>();
  private readonly settingsStore?: StateStore<Record<string, unknown>>;

  constructor(
    private readonly options: { dataDir?: string; endpoints: Record<string, string>; log: (line: string) => void },
  ) {
    if (options.dataDir) this.settingsStore = jsonFileStore(join(options.dataDir, 'notification-settings.json'));
  }

  /** Resumes the settings an earlier run with the same `dataDir` was given. */
  restore(): void {
    for (const [workspaceId, input] of Object.entries(this.settingsStore?.load() ?? {})) this.configure(workspaceId, input);
  }

  /** Replaces a workspace's settings; invalid ones are a 400 naming each field. */
  configure(workspaceId: string, input: unknown): void {
    let settings;
    try {
      settings = parseSettings(input);
    } catch (error) {
      if (error instanceof SettingsError) throw badRequest(error.issues);
      throw error;
    }
    this.stop(workspaceId);
    const store = this.options.dataDir
      ? jsonFileStore<NotificationState>(fileIn(this.options.dataDir, `notifications-${idFileName(workspaceId)}.json`))
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
    this.configured.set(workspaceId, input);
    this.saveSettings();
  }

  remove(workspaceId: string): boolean {
    if (!this.stop(workspaceId)) return false;
    this.configured.delete(workspaceId);
    this.saveSettings();
    return true;
  }

  private stop(workspaceId: string): boolean {
    const running = this.running.get(workspaceId);
    if (!running) return false;
    running.stop.abort();
    this.running.delete(workspaceId);
    return true;
  }

  /** Written with mode 0600: a webhook secret is part of the settings. */
  private saveSettings(): void {
    this.settingsStore?.save(Object.fromEntries(this.configured));
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

  /** Stops every notifier; the saved settings stay for the next run. */
  close(): void {
    for (const id of [...this.running.keys()]) this.stop(id);
  }
}
