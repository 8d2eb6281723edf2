import { redisUsage } from './redis-option.js';

/** The options of `flowblocks run`: in its own help and in the whole help. */
export const runOptions = (envVariables: readonly string[]) => `Options of run:
  --params '<json>'                       params as a JSON object
  --params-file <file|->                  params from a JSON file, or stdin
  --param key=value                       one param (repeatable; read by the param's type: text for a
                                          string param, JSON for numbers, booleans, arrays, objects)
  --endpoint service=url                  base-URL override, e.g. loops=http://127.0.0.1:4100/loops/api/v1
  --timeout <ms>                          time limit of each HTTP attempt (default 30000)
  --no-retry                              send each call once
${redisUsage(42)}
Credentials and base URLs not given as params come from the environment, as for ingest and mcp
(prefer them to --param: a command line ends up in shell history):
  ${envVariables.join(', ')}
`;

/** `flowblocks <command> --help` of the commands `main` runs itself. */
export function builtinHelp(command: string, envVariables: readonly string[]): string | undefined {
  switch (command) {
    case 'list':
      return `Usage: flowblocks list

Every tool, one a line: its id, its hints (readOnly, destructive, idempotent; "writes"
when it has none) and its name.
Exit codes: 0 success, 2 usage error.
`;
    case 'blocks':
      return `Usage: flowblocks blocks

Every block type, one a line, with its description (flowblocks manifest <block> for its fields).
Exit codes: 0 success, 2 usage error.
`;
    case 'schema':
      return `Usage: flowblocks schema <tool> [--llm]

The JSON Schema of a tool's params.
  --llm                                   the model's view: without the params only a user sets
                                          (credentials, base URLs)
Exit codes: 0 success, 2 usage error (no such tool).
`;
    case 'manifest':
      return `Usage: flowblocks manifest <block>

The manifest a workflow editor renders for a block (flowblocks blocks lists them) and, per
tool, the JSON Schemas of its params and output, as JSON: the file blocks/<block>.json of the
repository.
Exit codes: 0 success, 2 usage error (no such block).
`;
    case 'run':
      return `Usage: flowblocks run <tool> [options]

Runs one tool and prints its result as JSON (stdout on success, stderr on failure).

${runOptions(envVariables)}
Exit codes: 0 success, 1 the tool failed, 2 usage error.
`;
    default:
      return undefined;
  }
}
