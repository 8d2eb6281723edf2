import { readFile } from 'node:fs/promises';
import { agentOptionIssues, unknownKeyIssues } from '../../hosts/agents/check-options.js';
import { settingsFromEnv } from '../../hosts/agents/env-settings.js';
import type { AgentToolOptions, ServiceSettings } from '../../hosts/agents/options.js';
import { parseUserJson } from '../user-json/parse-user-json.js';

/**
 * The MCP server's configuration file (JSON): which tools, the bounds, and each service's
 * credentials and base URL by the tools' param names, e.g.
 * `{ "services": ["tinybird"], "readOnly": true, "settings": { "tinybird": { "token": "p.…", "base_url": "https://api.tinybird.co" } } }`.
 */
export interface McpConfigFile {
  services?: string[];
  readOnly?: boolean;
  maxItems?: number;
  maxRows?: number;
  maxResultBytes?: number;
  settings?: Record<string, ServiceSettings>;
}

/** Every key the file may hold: any other is a typo refused with its name (`readonly` would serve every tool). */
const CONFIG_KEYS = ['services', 'readOnly', 'maxItems', 'maxRows', 'settings'] as const satisfies readonly (keyof McpConfigFile)[];

export async function readMcpConfig(file: string): Promise<McpConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the config file ${file}: ${(error as Error).message}`);
  }
  const parsed = parseUserJson(text, `the config file ${file}`);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`the config file ${file} must hold a JSON object`);
  const config = parsed as McpConfigFile;
  if (config.services !== undefined && !(Array.isArray(config.services) && config.services.every((s) => typeof s === 'string'))) {
    throw new Error(`services in ${file} must be a list of service names`);
  }
  if (config.settings !== undefined && (typeof config.settings !== 'object' || config.settings === null || Array.isArray(config.settings))) {
    throw new Error(`settings in ${file} must map each service to its settings`);
  }
  if (config.readOnly !== undefined && typeof config.readOnly !== 'boolean') throw new Error(`readOnly in ${file} must be true or false`);
  for (const key of ['maxItems', 'maxRows'] as const) {
    const n = config[key];
    if (n !== undefined && !(Number.isInteger(n) && n >= 1)) throw new Error(`${key} in ${file} must be a whole number of at least 1`);
  }
  const issues = [...unknownKeyIssues(config, CONFIG_KEYS, 'key'), ...agentOptionIssues({ services: config.services, settings: config.settings })];
  if (issues.length) throw new Error(`the config file ${file}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return config;
}

/** The file's settings, with the environment's variables winning for each value they set. */
export function mergeSettings(file: McpConfigFile, env: Record<string, string | undefined>): NonNullable<AgentToolOptions['settings']> {
  const merged: Record<string, ServiceSettings> = {};
  for (const [service, values] of Object.entries(file.settings ?? {})) merged[service] = { ...values };
  for (const [service, values] of Object.entries(settingsFromEnv(env))) merged[service] = { ...merged[service], ...values };
  return merged;
}
