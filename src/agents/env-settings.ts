import type { ServiceSettings } from './options.js';

/** Environment variables read for each service's settings, by the tools' param names. */
export const ENV_SETTINGS: Record<string, Record<string, string>> = {
  tinybird: { token: 'TINYBIRD_TOKEN', base_url: 'TINYBIRD_BASE_URL' },
  loops: { apiKey: 'LOOPS_API_KEY', base_url: 'LOOPS_BASE_URL' },
  workflow: { apiKey: 'WORKFLOW_API_KEY', base_url: 'WORKFLOW_BASE_URL' },
};

/** Service settings from the environment; unset and empty variables are left out. */
export function settingsFromEnv(env: Record<string, string | undefined> = process.env): Record<string, ServiceSettings> {
  const settings: Record<string, ServiceSettings> = {};
  for (const [service, variables] of Object.entries(ENV_SETTINGS)) {
    for (const [param, variable] of Object.entries(variables)) {
      const value = env[variable];
      if (value) (settings[service] ??= {})[param] = value;
    }
  }
  return settings;
}
