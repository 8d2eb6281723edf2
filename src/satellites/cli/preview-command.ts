import { parseArgs } from 'node:util';
import { closeSharedDispatcher } from '../../harness/send/dispatcher.js';
import { untilStopped } from './until-stopped.js';
import type { CliCommand } from './command.js';
import { collectEndpoints, portOf } from './params.js';

const USAGE = `Usage: flowblocks preview [options]     every block as an editor renders it, runnable, on 127.0.0.1

Starts the sandbox and a page that lists every block; pick a block and an operation, fill in
the fields (the sandbox's URLs and demo credentials are prefilled) and run it.

Options:
  --port <n>              port of the page (default 4200; 0 picks a free one)
  --sandbox-port <n>      port of the sandbox (default 0: a free one)
  --no-sandbox            do not start the sandbox; call the endpoints below (or those typed in the page)
  --endpoint service=url  a service's base URL, e.g. tinybird=http://127.0.0.1:4100/tinybird (repeatable)
  --once                  exit after printing the URL instead of serving until Ctrl-C

The sandbox needs chdb (embedded ClickHouse): npm install chdb
Exit codes: 0 done, 1 the sandbox or the page did not start, 2 usage error.
`;

const DEFAULT_PORT = 4200;

export const command: CliCommand = {
  summary: 'a local page showing every block as an editor renders it, runnable against the sandbox',
  async run(argv, io) {
    let options;
    try {
      const { values } = parseArgs({
        args: argv,
        options: {
          port: { type: 'string' },
          'sandbox-port': { type: 'string' },
          'no-sandbox': { type: 'boolean' },
          endpoint: { type: 'string', multiple: true },
          once: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      if (values.help) {
        io.stdout(USAGE);
        return 0;
      }
      options = {
        port: portOf(values.port, DEFAULT_PORT, '--port'),
        sandboxPort: portOf(values['sandbox-port'], 0, '--sandbox-port'),
        sandbox: !values['no-sandbox'],
        endpoints: collectEndpoints(values.endpoint, (await import('../../registry.js')).listServices().map((s) => s.id)) ?? {},
        once: values.once === true,
      };
      if (options.sandbox && Object.keys(options.endpoints).length) throw new Error('--endpoint goes with --no-sandbox');
    } catch (error) {
      io.stderr(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    const { startPreviewServer, sandboxConnection, endpointConnection } = await import('../preview/index.js');
    const { listBlocks } = await import('../../registry.js');
    let sandbox: import('../sandbox/index.js').Sandbox | undefined;
    let preview;
    try {
      if (options.sandbox) {
        const { startSandbox } = await import('../sandbox/index.js');
        sandbox = await startSandbox({ port: options.sandboxPort, seed: true });
      }
      const connection = sandbox ? sandboxConnection(sandbox) : endpointConnection(options.endpoints, listBlocks());
      preview = await startPreviewServer({ port: options.port, connection });
    } catch (error) {
      io.stderr(`the preview did not start: ${(error as Error).message}\n`);
      await sandbox?.close();
      return 1;
    }
    io.stdout(`flowblocks preview: ${preview.url}\n`);
    io.stdout(sandbox ? `  running against the sandbox at ${new URL(sandbox.urls.tinybird).origin} (demo credentials prefilled)\n` : '  running against your endpoints; enter credentials in the page\n');
    if (!options.once) {
      io.stdout('Stop with Ctrl-C.\n');
      if ((await untilStopped()) === 'parent-gone') io.stdout('The process that started this one has ended: stopping.\n');
    }
    await preview.close();
    await sandbox?.close();
    await closeSharedDispatcher();
    return 0;
  },
};
