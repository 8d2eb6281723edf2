import { paramNames } from '../../harness/define/fields.js';
import type { AnyTool, ExecuteOptions } from '../../harness/types.js';
import { getService, listServices, listTools, type ServiceMap } from '../../registry.js';

/**
 * The user's side of every call, per service, keyed by the tools' own param names
 * (`token`, `apiKey`, `base_url`). A model never sees these values.
 */
export type ServiceSettings = Record<string, unknown>;

/** A built-in service's id; a service registered at run time is passed as `id as ServiceId` (it is checked then). */
export type ServiceId = keyof ServiceMap;

export interface AgentToolOptions {
  /** Services whose tools are offered (default: every service); an unknown one is refused, named. */
  services?: readonly ServiceId[];
  /** Offer only tools annotated read-only. */
  readOnly?: boolean;
  /** Credentials, base URLs and other user-only values, per service. */
  settings?: Record<string, ServiceSettings>;
  /** Items handed back per call by list tools; the rest stays behind the cursor (default 25). */
  maxItems?: number;
  /** Rows handed back by query tools; the result says how many there were (default 100). */
  maxRows?: number;
  /**
   * The most a model gets from one call, in UTF-8 bytes of the result's JSON (default
   * `DEFAULT_MAX_RESULT_BYTES`, 100,000); over MCP the text and the structured content
   * together. A longer output or error is cut, and says so.
   */
  maxResultBytes?: number;
  /** Use the strict-mode schemas: every property required, optional ones as nullable. */
  strict?: boolean;
  /** Passed to every `executeTool` call (timeouts, retry, dispatcher). */
  execute?: Omit<ExecuteOptions, 'endpoints' | 'binaryAnswers'>;
}

export const DEFAULT_MAX_ITEMS = 25;
export const DEFAULT_MAX_ROWS = 100;

/** The tools offered under these options, in registry order. */
export function selectTools(options: Pick<AgentToolOptions, 'services' | 'readOnly'> = {}): AnyTool[] {
  const services = options.services ? new Set<string>(options.services) : undefined;
  return listTools().filter(
    (tool) => (!services || services.has(tool.service)) && (!options.readOnly || tool.annotations.readOnly),
  );
}

/** Every service in the registry. */
export function serviceNames(): string[] {
  return listServices().map((service) => service.id);
}

/**
 * Splits a service's settings into a tool's user-only params and `executeTool`'s
 * endpoints: the `base_url` setting goes to the service's base-URL param where it has one
 * (for a tool of no registered service: a `base_url` param), an endpoint override otherwise.
 */
export function userSide(tool: AnyTool, settings: ServiceSettings = {}): { params: Record<string, unknown>; endpoints?: Record<string, string> } {
  const userOnly = new Set(paramNames(tool.params, (meta) => meta.visibility === 'user-only'));
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined && userOnly.has(name)) params[name] = value;
  }
  const connection = getService(tool.service)?.connection;
  // A service with a default base URL (Tinybird's first region) needs only its credential, as in `flowblocks ingest`.
  const baseUrl = settings.base_url ?? connection?.baseUrl.default;
  if (typeof baseUrl !== 'string') return { params };
  // A tool of no registered service takes it as its own `base_url` param, if it has one.
  const placed = connection ? connection.placeBaseUrl(baseUrl) : userOnly.has('base_url') ? { params: { base_url: baseUrl } } : { endpoints: { [tool.service]: baseUrl } };
  Object.assign(params, placed.params);
  return placed.endpoints ? { params, endpoints: placed.endpoints } : { params };
}

/** Every secret value in the settings, to scrub from anything handed to a model. */
export function secretValues(tool: AnyTool, settings: ServiceSettings = {}): string[] {
  const secret = new Set(paramNames(tool.params, (meta) => meta.secret === true));
  return Object.entries(settings)
    .filter(([name, value]) => secret.has(name) && typeof value === 'string' && value.length > 0)
    .map(([, value]) => value as string);
}

/**
 * Every secret in every service's settings: the values of the params any tool of that service
 * marks secret. Each call masks all of them, whichever tool it runs, since a service's answer
 * can hold another's credential (a workflow log holding a Loops block's inputs).
 */
export function configuredSecrets(settings: Record<string, ServiceSettings> = {}): string[] {
  const secrets = new Set<string>();
  for (const tool of listTools()) {
    const serviceSettings = Object.hasOwn(settings, tool.service) ? settings[tool.service] : undefined;
    if (serviceSettings) for (const value of secretValues(tool, serviceSettings)) secrets.add(value);
  }
  return [...secrets];
}

/** What a service's settings lack to make a call: its credential, and a base URL where the service has no default. */
export function missingSettings(serviceId: string, settings: ServiceSettings = {}): string[] {
  const service = getService(serviceId);
  if (!service) return [];
  const { credential, baseUrl } = service.connection;
  const missing: string[] = [];
  if (settings[credential.param] === undefined) missing.push(`${credential.param} ($${credential.env})`);
  if (settings.base_url === undefined && !baseUrl.default) missing.push(`base_url${baseUrl.env ? ` ($${baseUrl.env})` : ''}`);
  return missing;
}
