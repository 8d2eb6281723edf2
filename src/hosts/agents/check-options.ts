import { didYouMean } from '../../harness/did-you-mean.js';
import { paramNames } from '../../harness/define/fields.js';
import { getService, listServices } from '../../registry.js';
import type { AgentToolOptions } from './options.js';

export interface NameIssue {
  path: string;
  message: string;
}

/** A name as written, quoted and cut short: a key in a config file can be anything, of any length. */
const shown = (name: string) => JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);

/** `unknown <what> "x" (did you mean 'y'?)` for each own key of `value` that is not one of `known`. */
export function unknownKeyIssues(value: object, known: readonly string[], what: string, path = ''): NameIssue[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => ({ path: path ? `${path}.${key}` : key, message: `unknown ${what} ${shown(key)}${didYouMean(key, known)}` }));
}

/** The settings a service takes: its tools' user-only params (the credential, …) and `base_url`. */
export function settingNames(serviceId: string): string[] {
  const names = new Set(['base_url']);
  for (const tool of getService(serviceId)?.tools ?? []) {
    for (const name of paramNames(tool.params, (meta) => meta.visibility === 'user-only')) names.add(name);
  }
  return [...names];
}

/**
 * What the agent options name that does not exist: a service in `services` or `settings`,
 * a setting of a service. A typo would otherwise offer no tools, or drop a credential, without
 * a word. Names only, never a value (a setting is a credential).
 */
export function agentOptionIssues(options: { services?: readonly string[]; settings?: AgentToolOptions['settings'] }): NameIssue[] {
  const services = listServices().map((service) => service.id);
  const issues: NameIssue[] = [];
  (options.services ?? []).forEach((id, i) => {
    if (!services.includes(id)) issues.push({ path: `services.${i}`, message: `unknown service ${shown(id)}${didYouMean(id, services)}` });
  });
  const settings = options.settings ?? {};
  issues.push(...unknownKeyIssues(settings, services, 'service', 'settings'));
  for (const service of Object.keys(settings).filter((id) => services.includes(id))) {
    const values = settings[service];
    if (values && typeof values === 'object') issues.push(...unknownKeyIssues(values, settingNames(service), `setting of ${service}`, `settings.${service}`));
  }
  return issues;
}

/** Refuses options that name an unknown service or setting, each named with a did-you-mean. */
export function checkAgentOptions(options: { services?: readonly string[]; settings?: AgentToolOptions['settings'] }): void {
  const issues = agentOptionIssues(options);
  if (issues.length) throw new Error(`invalid agent options: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
}
