import { listServices } from '../../../registry.js';
import type { ServiceSettings } from '../options.js';
import type { BaseUrlAllowList } from './base-url-allow.js';

/** One header a client may send a service's setting in: `X-Tinybird-Token`, `X-Workflow-Base-Url`. */
export interface CredentialHeader {
  service: string;
  /** The setting's name, the tools' own param name (`token`, `apiKey`, `base_url`). */
  setting: string;
  /** As a person writes it. */
  header: string;
  /** As Node's `req.headers` keys it. */
  key: string;
  /** The environment variable the server itself reads the same setting from. */
  env: string;
}

/** `apiKey` → `Api-Key`, `base_url` → `Base-Url`: a param name as header words. */
const headerWords = (name: string): string =>
  name
    .split(/_|(?=[A-Z])/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join('-');

/**
 * The headers of every registered service's settings, from each service's connection (its
 * credential param and its base URL): a fourth service gets its own with nothing added here.
 */
export function credentialHeaders(services?: readonly string[]): CredentialHeader[] {
  return listServices()
    .filter((service) => !services || services.includes(service.id))
    .flatMap((service) =>
      Object.entries(service.env).map(([setting, env]) => {
        const header = `X-${headerWords(service.id)}-${headerWords(setting)}`;
        return { service: service.id, setting, header, key: header.toLowerCase(), env };
      }),
    );
}

/** What a request's headers say: its own settings per service, or why it is refused. */
export type HeaderSettings = { settings?: Record<string, ServiceSettings>; refusal?: string };

/**
 * A request's own settings. A service any of whose headers came is configured from the
 * headers alone (its base URL the header's or the service's default), never half from the
 * server's: a client's key never goes to the operator's base URL, nor the operator's key to the
 * client's. A base URL header must name an origin the server allows. Never repeats a value.
 */
export function settingsFromHeaders(
  headers: Record<string, string | string[] | undefined>,
  known: readonly CredentialHeader[],
  allow: BaseUrlAllowList,
): HeaderSettings {
  let settings: Record<string, ServiceSettings> | undefined;
  for (const entry of known) {
    const value = headers[entry.key];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') return { refusal: `${entry.header} was sent more than once` };
    if (entry.setting === 'base_url' && !allow.allows(value)) {
      return { refusal: `${entry.header} names a base URL this server does not allow; allowed: ${allow.describe()}` };
    }
    ((settings ??= {})[entry.service] ??= {})[entry.setting] = value;
  }
  return settings ? { settings } : {};
}
