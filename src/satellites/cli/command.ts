import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What a CLI command is: `main` loads one by name and runs it with the process's streams. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: () => Promise<string>;
}

/** A command that parses its own arguments, in a module of its own loaded only when called. */
export interface CliCommand {
  summary: string;
  /** Sub-commands shown in the top-level help under the command, e.g. `{ outbox: '…' }` for `sandbox outbox`. */
  subcommands?: Record<string, string>;
  run(argv: string[], io: CliIo): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;
/** What Node's parser returns for these options (`--help` is every command's). */
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O & { help: { type: 'boolean'; short: 'h' } }; allowPositionals: boolean; strict: true }>>;

/**
 * A command's arguments by Node's own parser, or the exit code when there is nothing to run:
 * 2 after the parser's message and the usage (a bad option), 0 after the usage (`--help`, `-h`).
 */
export function parseCommandArgs<const O extends Options>(argv: string[], options: O, usage: string, io: CliIo, allowPositionals = false): Parsed<O> | number {
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true });
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.stdout(usage);
    return 0;
  }
  return parsed;
}
