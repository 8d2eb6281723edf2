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
