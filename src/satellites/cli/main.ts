import { parseArgs } from 'node:util';
import type { CliCommand, CliIo } from './command.js';
import { didYouMean } from '../../harness/did-you-mean.js';
import { collectEndpoints, collectParams, UnknownNameError, UsageError } from './params.js';
import { openRedisPacer, redisUrlOf } from './redis-option.js';
import { builtinHelp, runOptions } from './builtin-help.js';
import { packageVersion } from '../../version.js';

export type { CliCommand, CliIo } from './command.js';

/** Long-running and heavy commands: one line each, loaded lazily so `flowblocks list` stays fast. */
const COMMANDS = new Map<string, () => Promise<{ command: CliCommand }>>([
  ['ingest', () => import('./ingest-command.js')],
  ['mcp', () => import('./mcp-command.js')],
  ['monitor', () => import('./monitor-command.js')],
  ['preview', () => import('./preview-command.js')],
  ['sandbox', () => import('./sandbox-command.js')],
  ['sim-blocks', () => import('./sim-blocks-command.js')],
]);

/** The commands `main` runs itself. */
const BUILTIN_COMMANDS = ['list', 'blocks', 'schema', 'manifest', 'run', 'help'];

/** `no tool with id x (did you mean 'y'?)`, for `schema` and `run`. */
function unknownTool(name: string, ids: string[]): UnknownNameError {
  return new UnknownNameError(`no tool with id ${name}${didYouMean(name, ids)} (see flowblocks list)`);
}

const USAGE_HEAD = `flowblocks — integration blocks and agent tools for workflow platforms

Usage:
  flowblocks list                         every tool: id, hints, name
  flowblocks blocks                       every block type
  flowblocks schema <tool> [--llm]        JSON Schema of a tool's params (--llm: the model's view)
  flowblocks manifest <block>             the manifest an editor renders, with its tools' JSON Schemas
  flowblocks run <tool> [options]         run a tool and print its result as JSON
  flowblocks --version                    the package's version
`;

const USAGE_TAIL = `
Each command's own options: flowblocks <command> --help.
Exit codes: 0 success, 1 the tool (or the command's work) failed, 2 usage error.
`;

/** The environment variables the commands that run tools read, every service's (loaded on use: it loads the registry). */
async function envVariables(): Promise<string[]> {
  const { envSettings } = await import('../../hosts/agents/env-settings.js');
  return Object.values(envSettings()).flatMap((vars) => Object.values(vars));
}

/** The whole help: the commands here, those loaded on use (with their sub-commands), the options of run, the exit codes. */
async function usage(): Promise<string> {
  let text = `${USAGE_HEAD}\nCommands loaded on use (each with --help):\n`;
  for (const [name, load] of COMMANDS) {
    const { summary, subcommands } = (await load()).command;
    text += `  flowblocks ${name.padEnd(28)} ${summary}\n`;
    for (const [sub, what] of Object.entries(subcommands ?? {})) text += `  flowblocks ${`${name} ${sub}`.padEnd(28)} ${what}\n`;
  }
  return `${text}\n${runOptions(await envVariables())}${USAGE_TAIL}`;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The `flowblocks` command; returns the exit code. The registry is loaded only by commands that need it. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  // A Map: `flowblocks constructor` is an unknown command, not Object.prototype.constructor.
  const load = argv[0] === undefined ? undefined : COMMANDS.get(argv[0]);
  if (load) return (await load()).command.run(argv.slice(1), io);
  const first = argv[0];
  // Before the options are parsed: `flowblocks sandox --port 1` is a mistyped command, not an unknown option.
  if (first !== undefined && !first.startsWith('-') && !BUILTIN_COMMANDS.includes(first)) {
    io.stderr(`unknown command ${first}${didYouMean(first, [...BUILTIN_COMMANDS, ...COMMANDS.keys()])}; flowblocks --help lists them\n`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        params: { type: 'string' },
        'params-file': { type: 'string' },
        param: { type: 'string', multiple: true },
        endpoint: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        'no-retry': { type: 'boolean' },
        redis: { type: 'string' },
        llm: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${await usage()}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, name] = positionals;
  // `flowblocks run --help`, `flowblocks help run`: that command's own help.
  const own = values.help && command ? command : command === 'help' ? name : undefined;
  const ownHelp = own === undefined ? undefined : builtinHelp(own, await envVariables());
  if (ownHelp) {
    io.stdout(ownHelp);
    return 0;
  }
  if (!command || values.help || command === 'help') {
    io.stdout(await usage());
    return command || values.help ? 0 : 2;
  }
  const api = await import('./builtin-api.js');
  try {
    switch (command) {
      case 'list':
        for (const tool of api.listTools()) {
          const hints = Object.entries(tool.annotations).filter(([, on]) => on).map(([hint]) => hint);
          io.stdout(`${tool.id.padEnd(36)} ${(hints.join(',') || 'writes').padEnd(28)} ${tool.name}\n`);
        }
        return 0;
      case 'blocks':
        for (const block of api.listBlocks()) io.stdout(`${block.type.padEnd(12)} ${block.definition.description}\n`);
        return 0;
      case 'schema':
        if (!name) throw new UsageError('schema needs a tool id');
        if (!api.getTool(name)) throw unknownTool(name, api.listTools().map((t) => t.id));
        io.stdout(json(api.toolJsonSchema(name, { audience: values.llm ? 'llm' : 'full' })));
        return 0;
      case 'manifest': {
        const block = name ? api.getBlock(name) : undefined;
        if (!block) throw new UsageError(`no block ${name ?? ''} (see flowblocks blocks)`);
        // The whole file (manifest and tools' JSON Schemas): what a registry or a build step reads.
        io.stdout(json(api.blockManifestFile(block)));
        return 0;
      }
      case 'run': {
        if (!name) throw new UsageError('run needs a tool id');
        const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
        if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError('--timeout takes a positive number of ms');
        if (!api.getTool(name)) throw unknownTool(name, api.listTools().map((t) => t.id));
        const given = await collectParams(values, io.stdin, api.toolJsonSchema(name) as { properties?: Record<string, unknown> });
        const { withEnvSettings } = await import('./run-env.js');
        const { params, endpoints } = withEnvSettings(api.getTool(name)!, given, collectEndpoints(values.endpoint, api.listServices().map((s) => s.id)), process.env);
        const redisUrl = redisUrlOf(values.redis, process.env);
        const redis = await openRedisPacer(redisUrl, io.stderr).catch((error: Error) => error);
        if (redis instanceof Error) {
          io.stderr(`flowblocks run: ${redis.message}\n`);
          return 1;
        }
        const result = await api.executeTool(name, params, { endpoints, timeoutMs, retry: values['no-retry'] ? false : undefined, pacer: redis.pacer });
        (result.success ? io.stdout : io.stderr)(json(result));
        await Promise.all([api.closeSharedDispatcher(), redis.close()]);
        return result.success ? 0 : 1;
      }
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${error instanceof UsageError && !(error instanceof UnknownNameError) ? `\n${await usage()}` : ''}`);
    return 2;
  }
}
