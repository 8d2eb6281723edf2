import { envSettings } from '../../hosts/agents/env-settings.js';
import type { Sandbox, SandboxService } from '../sandbox/index.js';

/**
 * How to call the CLI from where this one runs: a bare `flowblocks` is on no PATH. Installed
 * (the built `dist/`), `npx flowblocks` finds it; in a clone running the sources, `npx`
 * finds nothing (no build, not installed), and the `flowblocks` script runs them.
 */
export function cliInvocation(moduleUrl = import.meta.url): string {
  return moduleUrl.endsWith('.ts') ? 'npm run --silent flowblocks --' : 'npx flowblocks';
}

/**
 * The sandbox's URLs and demo credentials as the environment variables `run`, `ingest` and
 * `mcp` read (each service's `env`, by setting name), so no example puts a credential on a
 * command line.
 */
export function sandboxEnv(sb: Pick<Sandbox, 'urls' | 'credentials'>): Record<string, string> {
  const c = sb.credentials;
  const values: Record<SandboxService, Record<string, string>> = {
    tinybird: { base_url: sb.urls.tinybird, token: c.tinybird.adminToken },
    loops: { base_url: sb.urls.loops, apiKey: c.loops.apiKey },
    workflow: { base_url: sb.urls.workflow, apiKey: c.workflow.apiKey },
  };
  const env: Record<string, string> = {};
  for (const [service, variables] of Object.entries(envSettings())) {
    for (const [setting, variable] of Object.entries(variables)) {
      const value = values[service as SandboxService]?.[setting];
      if (value !== undefined) env[variable] = value;
    }
  }
  return env;
}

/** The "Try it" lines printed under the banner while the sandbox serves. */
export function tryIt(sb: Pick<Sandbox, 'urls' | 'serviceUrls' | 'credentials'>, fb = cliInvocation()): string {
  const env = Object.entries(sandboxEnv(sb)).map(([name, value]) => `${name}=${value}`).join(' ');
  const tinybird = (sb.serviceUrls ?? sb.urls).tinybird;
  return `
Try it with the CLI while the sandbox runs (run, ingest and mcp read the credentials from the environment):
  export ${env}
  ${fb} run tinybird_query --param "query=SELECT event, count() FROM events GROUP BY event"
  ${fb} run loops_find_contact --param email=ada@example.com
  ${fb} run workflow_list_logs --param workspaceId=${sb.credentials.workflow.workspaceId}
  ${fb} sandbox outbox --url ${sb.urls.tinybird.replace(/\/tinybird$/, '')}
  curl -H "Authorization: Bearer $TINYBIRD_TOKEN" "${tinybird}/v0/sql?q=SELECT+count()+FROM+events"
Stop with Ctrl-C.
`;
}
