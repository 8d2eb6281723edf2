import { credentialHeaders } from '../../hosts/agents/mcp-http/credential-headers.js';
import type { ServeMcpHttpOptions } from '../../hosts/agents/mcp-http/serve.js';
import { missingSettings } from '../../hosts/agents/options.js';
import { getService } from '../../registry.js';
import type { CliIo } from './command.js';
import { portOf } from './params.js';

/** The environment variable holding the token every HTTP request must carry as `Authorization: Bearer`. */
export const TOKEN_ENV = 'FLOWBLOCKS_MCP_TOKEN';

export const HTTP_USAGE = `Over HTTP (MCP's Streamable HTTP, stateless: any number of processes behind a load balancer):
  --http                  serve at http://<host>:<port>/mcp instead of stdio; health check at /health
  --host <address>        address to bind (default 127.0.0.1); another needs $${TOKEN_ENV}
  --port <n>              port (default 8787; 0 picks a free one)
  --allow-origin <url>    a browser origin let in besides loopback pages (repeatable)
  --allow-base-url <url>  a base URL a client may send in X-…-Base-Url besides the services'
                          public API hosts (repeatable)
  --max-calls <n>         tool calls at once in this process (default 256)
  --max-calls-per-client <n>  tool calls at once per client, i.e. per set of credentials (default 32)
With $${TOKEN_ENV} set, every request must carry Authorization: Bearer <token>.
A client may send its own credentials per request: ${credentialHeaders().map((h) => h.header).join(', ')}.
`;

/** The `parseArgs` options of HTTP mode. */
export const HTTP_OPTIONS = {
  http: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'allow-base-url': { type: 'string', multiple: true },
  'max-calls': { type: 'string' },
  'max-calls-per-client': { type: 'string' },
} as const;

export interface HttpFlags {
  host?: string;
  port?: string;
  'allow-origin'?: string[];
  'allow-base-url'?: string[];
  'max-calls'?: string;
  'max-calls-per-client'?: string;
}

const wholeNumber = (value: string | undefined, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a whole number of at least 1`);
  return n;
};

/** The HTTP server's own options from its flags and the environment; a usage error throws. */
export function httpOptions(flags: HttpFlags, env: Record<string, string | undefined>): Omit<ServeMcpHttpOptions, keyof import('../../hosts/agents/options.js').AgentToolOptions> {
  const token = env[TOKEN_ENV]?.trim() || undefined;
  if (token !== undefined && token.length < 16) throw new Error(`$${TOKEN_ENV} must be at least 16 characters: a token that guards tools, not a password to remember`);
  return {
    host: flags.host ?? '127.0.0.1',
    port: portOf(flags.port, 8787, '--port'),
    ...(token ? { token } : {}),
    allowOrigins: flags['allow-origin'] ?? [],
    allowBaseUrls: flags['allow-base-url'] ?? [],
    maxConcurrentCalls: wholeNumber(flags['max-calls'], '--max-calls'),
    maxConcurrentCallsPerClient: wholeNumber(flags['max-calls-per-client'], '--max-calls-per-client'),
  };
}

/**
 * What a client pastes (Sim's Settings → MCP Tools: URL and headers; Cursor's and Claude's
 * `url` and `headers`): the URL, the bearer token and, for each service the server holds no
 * credential for, the headers a client sends its own in. Values are `{{VARIABLE}}` references
 * (Sim's workspace variables), never a secret.
 */
export function clientConfig(url: string, options: Pick<ServeMcpHttpOptions, 'token' | 'services' | 'settings'>, services: readonly string[]) {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer {{${TOKEN_ENV}}}`;
  for (const entry of credentialHeaders(services)) {
    const configured = missingSettings(entry.service, options.settings?.[entry.service]).length === 0;
    if (configured) continue;
    // A base URL header only where the service has no default (Tinybird's other regions: optional).
    if (entry.setting === 'base_url' && getService(entry.service)?.connection.baseUrl.default) continue;
    headers[entry.header] = `{{${entry.env}}}`;
  }
  return { url, headers };
}

/** Serves over HTTP until Ctrl-C, SIGTERM or the parent's end; then lets calls in flight finish. */
export async function runHttp(options: ServeMcpHttpOptions, services: readonly string[], io: CliIo): Promise<void> {
  const [{ serveMcpHttp }, { untilStopped }] = await Promise.all([import('../../hosts/agents/mcp-http/serve.js'), import('./until-stopped.js')]);
  const served = await serveMcpHttp(options);
  const health = new URL('/health', served.url).href;
  io.stderr(`flowblocks mcp: serving ${options.readOnly ? 'read-only ' : ''}tools of ${services.join(', ')} over Streamable HTTP at ${served.url} (health: ${health})${options.token ? '' : '; no token: loopback only'}\n`);
  io.stdout(`${JSON.stringify(clientConfig(served.url, options, services), null, 2)}\n`);
  io.stderr('A client takes the URL and the headers above (Sim: Settings → MCP Tools; {{VAR}} are its workspace variables). Stop with Ctrl-C.\n');
  await untilStopped();
  io.stderr(`flowblocks mcp: stopping; ${served.handler.inFlight} request(s) in flight finish first\n`);
  await served.close();
}
