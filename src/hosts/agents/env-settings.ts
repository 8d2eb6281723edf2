import { listServices } from '../../registry.js';
import type { ServiceSettings } from './options.js';

/** Environment variables read for each registered service's settings, by setting name (each service's `env`). */
export function envSettings(): Record<string, Record<string, string>> {
  return Object.fromEntries(listServices().map((service) => [service.id, { ...service.env }]));
}

/** The environment variables of the built-in services (`envSettings()` also has those registered later). */
export const ENV_SETTINGS: Record<string, Record<string, string>> = envSettings();

/** Service settings from the environment; unset and empty variables are left out. */
export function settingsFromEnv(env: Record<string, string | undefined> = process.env): Record<string, ServiceSettings> {
  const settings: Record<string, ServiceSettings> = {};
  for (const [service, variables] of Object.entries(envSettings())) {
    for (const [param, variable] of Object.entries(variables)) {
      const value = env[variable];
      if (value) (settings[service] ??= {})[param] = value;
    }
  }
  return settings;
}
