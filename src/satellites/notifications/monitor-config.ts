import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { parseUserJson } from '../user-json/parse-user-json.js';
import { notificationSettingsSchema, SettingsError, zodIssueList, type NotificationSettings } from './settings.js';

const configSchema = z.strictObject({
  /** The platform's base URL; the logs API is `<baseUrl>/api/v1/logs`. */
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string().min(1),
  workspaceId: z.string().min(1),
  /** State directory; relative to the config file. */
  dataDir: z.string().min(1).default('.flowblocks-monitor'),
  pollIntervalSeconds: z.number().min(1).max(3600).default(60),
  lookbackMinutes: z.number().min(0).max(24 * 60).default(15),
  /** Where the first run starts reading: `now`, or an ISO time to replay from. */
  startFrom: z.union([z.literal('now'), z.iso.datetime({ offset: true })]).default('now'),
  /** With the Redis store: how long a monitor that stops renewing keeps the lease. */
  leaseSeconds: z.number().min(1).max(600).default(15),
  notifications: notificationSettingsSchema,
});

export interface MonitorConfig {
  baseUrl: string;
  apiKey: string;
  workspaceId: string;
  dataDir: string;
  pollIntervalMs: number;
  lookbackMs: number;
  startFrom: 'now' | number;
  leaseMs: number;
  notifications: NotificationSettings;
}

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${NAME}` in every string with the variable's value, so secrets stay out of the file. */
function substitute(value: unknown, env: NodeJS.ProcessEnv, path: string[], missing: { path: string; message: string }[]): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (_match, name: string) => {
      const found = env[name];
      if (found === undefined) missing.push({ path: path.join('.'), message: `environment variable ${name} is not set` });
      // Trailing newlines from `$(cat file)` would break a key or a signature.
      return (found ?? '').trim();
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => substitute(item, env, [...path, String(i)], missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env, [...path, k], missing)]));
  }
  return value;
}

/** Reads and checks a monitor config file; errors name the field (never its value). */
export function loadMonitorConfig(file: string, env: NodeJS.ProcessEnv = process.env): MonitorConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read';
    throw new SettingsError([{ path: '', message: `${file}: ${reason}` }], 'monitor config');
  }
  let raw: unknown;
  try {
    raw = parseUserJson(text, file);
  } catch (error) {
    // Names the line and column, never the text: a config file holds API keys.
    throw new SettingsError([{ path: '', message: (error as Error).message }], 'monitor config');
  }
  const missing: { path: string; message: string }[] = [];
  const filled = substitute(raw, env, [], missing);
  if (missing.length) throw new SettingsError(missing, 'monitor config');
  const parsed = configSchema.safeParse(filled);
  if (!parsed.success) throw new SettingsError(zodIssueList(parsed.error), 'monitor config');
  const c = parsed.data;
  return {
    baseUrl: c.baseUrl,
    apiKey: c.apiKey,
    workspaceId: c.workspaceId,
    dataDir: resolve(dirname(file), c.dataDir),
    pollIntervalMs: c.pollIntervalSeconds * 1000,
    lookbackMs: c.lookbackMinutes * 60_000,
    startFrom: c.startFrom === 'now' ? 'now' : Date.parse(c.startFrom),
    leaseMs: c.leaseSeconds * 1000,
    notifications: c.notifications,
  };
}
