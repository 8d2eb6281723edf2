import { parseArgs } from 'node:util';
import { ENV_SETTINGS } from '../../hosts/agents/env-settings.js';
import { missingSettings, serviceNames, type ServiceId } from '../../hosts/agents/options.js';
import { didYouMean } from '../../harness/did-you-mean.js';
import type { CliCommand, CliIo } from './command.js';
import { mergeSettings, readMcpConfig, type McpConfigFile } from './mcp-config.js';
import { CLI_MCP_SDK_MISSING, desktopConfig, NPX_MCP_COMMAND } from './mcp-desktop-config.js';
import { clientConfig, HTTP_OPTIONS, HTTP_USAGE, httpOptions, runHttp } from './mcp-http-command.js';
import { openRedisPacer, redisUrlOf, redisUsage } from './redis-option.js';

const USAGE = `Usage: flowblocks mcp [options]         serve the tools to an MCP client over stdio or HTTP

Options:
  --config <file>         JSON config: services, readOnly, maxItems, maxRows, maxResultBytes, settings per service
  --services <a,b>        only these services (${serviceNames().join(', ')})
  --read-only             only read-only tools
  --max-items <n>         items per call from list tools (default 25)
  --max-rows <n>          rows per call from query tools (default 100)
  --max-result-bytes <n>  bytes per call a model gets, text and structured content together (default 100000)
${redisUsage(26)}
  --print-config          print a desktop agent's config (Claude Desktop, Cursor, VS Code) that starts
                          this server with these options through npx (with --http: a client's URL
                          and headers), and exit

${HTTP_USAGE}
Credentials and base URLs come from the config file's settings or the environment
(the environment wins): ${Object.values(ENV_SETTINGS).flatMap((vars) => Object.values(vars)).join(', ')}.
A model never sees them, and its values for them are dropped.
Needs the MCP SDK, an optional peer: npm install @modelcontextprotocol/sdk beside flowblocks, or
with nothing installed: ${NPX_MCP_COMMAND}
Exit codes: 0 the client closed the connection (HTTP: stopped), 1 the server failed, 2 usage error.
`;

/** The SDK could not be loaded: a missing module, directly or as the cause of createMcpServer's error. */
const sdkMissing = (error: unknown): boolean =>
  (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || (error as { cause?: { code?: string } }).cause?.code === 'ERR_MODULE_NOT_FOUND';

const positive = (value: string | undefined, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a whole number of at least 1`);
  return n;
};

async function run(argv: string[], io: CliIo): Promise<number> {
  let config: McpConfigFile = {};
  let options;
  let redisUrl: string | undefined;
  let http: ReturnType<typeof httpOptions> | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        services: { type: 'string' },
        'read-only': { type: 'boolean' },
        'max-items': { type: 'string' },
        'max-rows': { type: 'string' },
        'max-result-bytes': { type: 'string' },
        redis: { type: 'string' },
        'print-config': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...HTTP_OPTIONS,
      },
    });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    if (values.config) config = await readMcpConfig(values.config);
    const services = values.services?.split(',').map((s) => s.trim()).filter(Boolean) ?? config.services;
    const unknown = services?.filter((s) => !serviceNames().includes(s)) ?? [];
    if (unknown.length) throw new Error(`unknown service ${unknown.map((s) => `${s}${didYouMean(s, serviceNames())}`).join(', ')} (known: ${serviceNames().join(', ')})`);
    options = {
      // Each one checked just above.
      services: services as ServiceId[] | undefined,
      readOnly: values['read-only'] ?? config.readOnly ?? false,
      maxItems: positive(values['max-items'], '--max-items') ?? config.maxItems,
      maxRows: positive(values['max-rows'], '--max-rows') ?? config.maxRows,
      maxResultBytes: positive(values['max-result-bytes'], '--max-result-bytes') ?? config.maxResultBytes,
      settings: mergeSettings(config, process.env),
    };
    redisUrl = redisUrlOf(values.redis, process.env);
    const httpOnly = (['host', 'port', 'allow-origin', 'allow-base-url', 'max-calls', 'max-calls-per-client'] as const).find((flag) => values[flag] !== undefined);
    if (httpOnly && !values.http) throw new Error(`--${httpOnly} goes with --http`);
    if (values.http) http = httpOptions(values, process.env);
    if (values['print-config'] && http) {
      const url = `http://${http.host}:${http.port}/mcp`;
      io.stdout(`${JSON.stringify(clientConfig(url, { ...options, ...http }, services ?? serviceNames()), null, 2)}\n`);
      return 0;
    }
    if (values['print-config']) {
      // The options as given, minus this one; a --config file's path is the user's to make absolute.
      const args = argv.filter((arg) => arg !== '--print-config');
      io.stdout(`${JSON.stringify(desktopConfig({ args, services: services ?? serviceNames() }), null, 2)}\n`);
      return 0;
    }
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }

  // stdout carries the protocol: everything for a person goes to stderr.
  const lacking = (options.services ?? serviceNames())
    .map((s) => [s, missingSettings(s, options.settings[s])] as const)
    .filter(([, missing]) => missing.length)
    .map(([s, missing]) => `${s} lacks ${missing.join(' and ')}`);
  if (lacking.length) io.stderr(`flowblocks mcp: ${lacking.join('; ')}; its tools will answer "not configured"\n`);
  let redis: Awaited<ReturnType<typeof openRedisPacer>> | undefined;
  try {
    redis = await openRedisPacer(redisUrl, io.stderr);
    if (http) {
      const { closeSharedDispatcher } = await import('../../harness/send/dispatcher.js');
      await runHttp({ ...(redis.pacer ? { ...options, execute: { pacer: redis.pacer } } : options), ...http }, options.services ?? serviceNames(), io);
      await Promise.all([closeSharedDispatcher(), redis.close()]);
      return 0;
    }
    const [{ createMcpServer }, { StdioServerTransport }, { closeSharedDispatcher }] = await Promise.all([
      import('../../hosts/agents/mcp-server.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../../harness/send/dispatcher.js'),
    ]);
    const server = await createMcpServer(redis.pacer ? { ...options, execute: { pacer: redis.pacer } } : options);
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
    });
    // The stdio transport does not end on its own when the client closes stdin.
    process.stdin.once('end', () => void server.close());
    await server.connect(new StdioServerTransport());
    io.stderr(`flowblocks mcp: serving ${options.readOnly ? 'read-only ' : ''}tools of ${(options.services ?? serviceNames()).join(', ')} over stdio\n`);
    await closed;
    await Promise.all([closeSharedDispatcher(), redis.close()]);
    return 0;
  } catch (error) {
    const message = sdkMissing(error) ? CLI_MCP_SDK_MISSING : (error as Error).message;
    io.stderr(`flowblocks mcp: ${message}\n`);
    await redis?.close();
    return 1;
  }
}

export const command: CliCommand = { summary: 'serve the tools to an MCP client over stdio or HTTP (see flowblocks mcp --help)', run };
