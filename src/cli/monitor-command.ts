import { parseArgs } from 'node:util';
import { closeSharedDispatcher } from '../harness/dispatcher.js';
import { safeOrigin } from '../notifications/http.js';
import { lockDataDir } from '../notifications/lock.js';
import { loadMonitorConfig } from '../notifications/monitor-config.js';
import { LogMonitor, MonitorError } from '../notifications/monitor.js';
import { Notifier } from '../notifications/notifier.js';
import type { NotificationState } from '../notifications/state.js';
import { jsonFileStore, stateFilePath } from '../notifications/store.js';
import { SettingsError, type Channel } from '../notifications/settings.js';
import type { CliCommand } from './command.js';

const USAGE = `Usage: flowblocks monitor --config <file> [--once] [--data-dir <dir>]

Watches a workspace through GET /api/v1/logs and sends completion notifications and alerts
(webhook, e-mail through Loops, Slack-compatible chat) as the config's settings say.
  --config <file>     JSON config (see docs/notifications.md); "\${NAME}" takes an environment variable
  --once              read what is new, send what is due, and exit (pending retries wait for the next run)
  --data-dir <dir>    state directory (overrides the config's dataDir)

Stop with Ctrl-C: the state is saved after every page, and each delivery attempt is
journaled when it starts and when it ends (a kill re-sends only what was in flight).
Exit codes: 0 done, 1 the monitor failed, 2 usage or config error.
`;

function describeChannel(channel: Channel): string {
  if (channel.type === 'email') return `email (${channel.recipients.length} recipient${channel.recipients.length === 1 ? '' : 's'})`;
  return `${channel.type} ${safeOrigin(channel.url)}`;
}

export const command: CliCommand = {
  summary: 'watch a workspace\'s logs and send completion notifications and alerts',
  async run(argv, io) {
    let values;
    try {
      values = parseArgs({
        args: argv,
        options: {
          config: { type: 'string' },
          once: { type: 'boolean' },
          'data-dir': { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      }).values;
    } catch (error) {
      io.stderr(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    if (!values.config) {
      io.stderr(`missing --config\n\n${USAGE}`);
      return 2;
    }
    let config;
    try {
      config = loadMonitorConfig(values.config);
    } catch (error) {
      io.stderr(`${(error as Error).message}\n`);
      return error instanceof SettingsError ? 2 : 1;
    }
    const dataDir = values['data-dir'] ?? config.dataDir;
    const line = (text: string) => io.stdout(`${new Date().toISOString()} ${text}\n`);
    let unlock: () => void;
    try {
      unlock = lockDataDir(dataDir);
    } catch (error) {
      io.stderr(`${(error as Error).message}\n`);
      return 1;
    }
    const stop = new AbortController();
    const onSignal = () => {
      line('stopping: finishing the current step, the state is saved');
      stop.abort(new Error('stopped'));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const notifier = new Notifier({
        settings: config.notifications,
        store: jsonFileStore<NotificationState>(stateFilePath(dataDir)),
        log: line,
      });
      const monitor = new LogMonitor({
        notifier,
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        workspaceId: config.workspaceId,
        pollIntervalMs: config.pollIntervalMs,
        lookbackMs: config.lookbackMs,
        startFrom: config.startFrom === 'now' ? undefined : config.startFrom,
        log: line,
      });
      const s = config.notifications;
      line(
        `monitor: workspace ${config.workspaceId} at ${safeOrigin(config.baseUrl)}; ${s.allWorkflows ? 'all workflows' : `${s.workflowIds?.length} workflow(s)`}; ` +
          `channels: ${s.channels.map(describeChannel).join(', ')}; ${s.alertRules ? `alert rules: ${s.alertRules.map((r) => r.type).join(', ')}` : 'every matching execution'}; ` +
          `state in ${dataDir}; ${notifier.queue.pending().length} delivery(ies) pending from before`,
      );
      await monitor.run({ once: values.once, signal: stop.signal });
      const pending = notifier.queue.pending().length;
      line(`${values.once ? 'done' : 'stopped'}: ${pending} delivery(ies) pending${pending ? ' (sent when due on the next run)' : ''}`);
      return 0;
    } catch (error) {
      if (stop.signal.aborted) {
        line('stopped');
        return 0;
      }
      io.stderr(`${error instanceof MonitorError ? '' : 'monitor failed: '}${(error as Error).message}\n`);
      return 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      unlock();
      await closeSharedDispatcher();
    }
  },
};
