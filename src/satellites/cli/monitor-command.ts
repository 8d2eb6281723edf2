import { closeSharedDispatcher } from '../../harness/send/dispatcher.js';
import { fileBackend } from '../notifications/file-backend.js';
import { safeOrigin } from '../notifications/http.js';
import { loadMonitorConfig, type MonitorConfig } from '../notifications/monitor-config.js';
import type { MonitorBackend } from '../notifications/monitor-backend.js';
import { LogMonitor, MonitorError } from '../notifications/monitor.js';
import { Notifier } from '../notifications/notifier.js';
import { isRedisUrl } from '../notifications/redis/url.js';
import { SettingsError, type Channel } from '../notifications/settings.js';
import { parseCommandArgs, type CliCommand } from './command.js';

const STORE_ENV = 'FLOWBLOCKS_MONITOR_STORE';

const USAGE = `Usage: flowblocks monitor --config <file> [--once] [--data-dir <dir>] [--store <redis-url>]

Watches a workspace through GET /api/v1/logs and sends completion notifications and alerts
(webhook, e-mail through Loops, Slack-compatible chat) as the config's settings say.
  --config <file>     JSON config (see docs/notifications.md); "\${NAME}" takes an environment variable
  --once              read what is new, send what is due, and exit (pending retries wait for the next run)
  --data-dir <dir>    state directory (overrides the config's dataDir)
  --store <url>       keep the state in Redis (redis://… or rediss://…; or ${STORE_ENV}) so monitors on
                      several machines fail over: one holds a lease and acts, the others wait
                      (needs: npm install bullmq ioredis); --once waits for an unreachable Redis
                      one lease time at most (the config's leaseSeconds, default 15)

Stop with Ctrl-C: the state is saved after every page, and each delivery attempt is
journaled when it starts and when it ends (a kill re-sends only what was in flight).
Exit codes: 0 done, 1 the monitor failed (or, with --once, a delivery was given up), 2 usage or config error.
`;

function describeChannel(channel: Channel): string {
  if (channel.type === 'email') return `email (${channel.recipients.length} recipient${channel.recipients.length === 1 ? '' : 's'})`;
  return `${channel.type} ${safeOrigin(channel.url)}`;
}

async function openBackend(store: string | undefined, config: MonitorConfig, dataDir: string, log: (line: string) => void): Promise<MonitorBackend> {
  if (store === undefined) return fileBackend(dataDir);
  // Loaded only here: without --store nothing of Redis is imported.
  const { redisBackend } = await import('../notifications/redis/backend.js');
  return redisBackend({ url: store, baseUrl: config.baseUrl, workspaceId: config.workspaceId, leaseMs: config.leaseMs, log });
}

export const command: CliCommand = {
  summary: 'watch a workspace\'s logs and send completion notifications and alerts',
  async run(argv, io) {
    const parsed = parseCommandArgs(argv, { config: { type: 'string' }, once: { type: 'boolean' }, 'data-dir': { type: 'string' }, store: { type: 'string' } }, USAGE, io);
    if (typeof parsed === 'number') return parsed;
    const { values } = parsed;
    if (!values.config) {
      io.stderr(`missing --config\n\n${USAGE}`);
      return 2;
    }
    const store = values.store ?? (process.env[STORE_ENV] || undefined);
    if (store !== undefined && !isRedisUrl(store)) {
      // Never echoed: a store URL may carry a password.
      io.stderr(`--store (or ${STORE_ENV}) must be a redis:// or rediss:// URL\n\n${USAGE}`);
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
    const stop = new AbortController();
    const onSignal = () => {
      line('stopping: finishing the current step, the state is saved');
      stop.abort(new Error('stopped'));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let backend: MonitorBackend | undefined;
    try {
      backend = await openBackend(store, config, dataDir, line);
      // Each pass is one session: the file store's lasts until the end; a Redis lease that is
      // lost ends its session, and the monitor waits to take the lease again.
      while (!stop.signal.aborted) {
        const session = await backend.acquire(stop.signal, { wait: !values.once });
        if (!session) break;
        const signal = AbortSignal.any([stop.signal, session.lost]);
        try {
          const notifier = new Notifier({ settings: config.notifications, store: session.store, log: line });
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
              `state in ${backend.description}; ${notifier.queue.pending().length} delivery(ies) pending from before`,
          );
          await monitor.run({ once: values.once, signal, deliveries: session.deliveries(notifier) });
          if (values.once && session.lost.aborted) throw new MonitorError('the lease was lost during the run; the next run goes on from what was saved');
          if (values.once || stop.signal.aborted) {
            const pending = notifier.queue.pending().length;
            const givenUp = notifier.givenUp ? `, ${notifier.givenUp} given up (see the lines above)` : '';
            line(`${values.once ? 'done' : 'stopped'}: ${pending} delivery(ies) pending${pending ? ' (sent when due on the next run)' : ''}${givenUp}`);
            // A cron run that lost a notification says so in its exit code.
            return values.once && notifier.givenUp ? 1 : 0;
          }
        } catch (error) {
          if (stop.signal.aborted) {
            line('stopped');
            return 0;
          }
          // A lost lease ends the session; a long-running monitor waits to take it again.
          if (!session.lost.aborted || values.once) throw error;
        } finally {
          await session.end();
        }
        line('waiting to take the lease again');
      }
      line('stopped');
      return 0;
    } catch (error) {
      io.stderr(`${error instanceof MonitorError ? '' : 'monitor failed: '}${(error as Error).message}\n`);
      return 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await backend?.close();
      await closeSharedDispatcher();
    }
  },
};
