import { parseArgs } from 'node:util';
import { closeSharedDispatcher } from '../harness/dispatcher.js';
import type { CliCommand, CliIo } from './command.js';
import { portOf } from './params.js';

const USAGE = `Usage: flowblocks sandbox [options]            start the local sandbox (Tinybird, Loops, workflow platform)
       flowblocks sandbox outbox [--url <origin>]    print the e-mails a running sandbox has "sent"

Options:
  --port <n>              port on 127.0.0.1 (default 4100; 0 picks a free one)
  --data-dir <dir>        keep state across restarts in this directory
  --schema <dir>          Tinybird .datasource and .pipe files to add to the built-in ones
  --workflows <dir>       workflow .json files to add to the built-in ones (see docs/sandbox.md)
  --fault <spec>          inject faults, e.g. tinybird:429=0.1,5xx=0.05,latency=200,drop=0.01 (repeatable)
  --fault-seed <n>        seed of the fault dice, to replay a run
  --tour                  run the tour: every block end to end, with a short report
  --once                  exit after starting (and after the tour) instead of serving until Ctrl-C

Needs chdb (embedded ClickHouse) for the Tinybird emulator: npm install chdb
Exit codes: 0 done, 1 the tour or the sandbox failed, 2 usage error.
`;

const DEFAULT_PORT = 4100;

async function printOutbox(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { url: { type: 'string' } } });
  const origin = (values.url ?? `http://127.0.0.1:${DEFAULT_PORT}`).replace(/\/+$/, '');
  let emails: { sentAt: string; to: string; subject: string; status: string; transactionalId: string }[];
  try {
    const res = await fetch(`${origin}/loops/_sandbox/outbox`);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    emails = ((await res.json()) as { emails: typeof emails }).emails;
  } catch (error) {
    io.stderr(`no sandbox answered at ${origin}: ${(error as Error).message}\n`);
    return 1;
  }
  if (emails.length === 0) io.stdout('the outbox is empty\n');
  for (const e of emails) io.stdout(`${e.sentAt}  ${e.status.padEnd(10)} ${e.to.padEnd(28)} ${e.transactionalId.padEnd(18)} ${e.subject}\n`);
  return 0;
}

function banner(sb: import('../sandbox/index.js').Sandbox): string {
  const c = sb.credentials;
  return `flowblocks sandbox on 127.0.0.1 (demo credentials, printed on purpose: they open only this sandbox)

  Tinybird   base_url ${sb.urls.tinybird}
             tokens   admin ${c.tinybird.adminToken} · read ${c.tinybird.readToken} · append:events ${c.tinybird.appendToken}
  Loops      endpoint ${sb.urls.loops}   (--endpoint loops=…)
             apiKey   ${c.loops.apiKey}
             outbox   ${sb.admin.loopsOutbox}
  Workflow   base_url ${sb.urls.workflow}
             apiKey   ${c.workflow.apiKey} (workspace ${c.workflow.workspaceId}, team plan) · ${c.workflow.freeApiKey} (${c.workflow.freeWorkspaceId}, free plan)
`;
}

function howTo(sb: import('../sandbox/index.js').Sandbox): string {
  const c = sb.credentials;
  return `
Try it with the CLI while the sandbox runs:
  flowblocks run tinybird_query --param base_url=${sb.urls.tinybird} --param token=${c.tinybird.adminToken} --param "query=SELECT event, count() FROM events GROUP BY event"
  flowblocks run loops_find_contact --endpoint loops=${sb.urls.loops} --param apiKey=${c.loops.apiKey} --param email=ada@example.com
  flowblocks run workflow_list_logs --param base_url=${sb.urls.workflow} --param apiKey=${c.workflow.apiKey} --param workspaceId=${c.workflow.workspaceId}
  flowblocks sandbox outbox --url ${sb.urls.tinybird.replace(/\/tinybird$/, '')}
Stop with Ctrl-C.
`;
}

export const command: CliCommand = {
  summary: 'start the local sandbox of the three services (--tour runs every block)',
  async run(argv, io) {
    if (argv[0] === 'outbox') return printOutbox(argv.slice(1), io);
    let values;
    try {
      ({ values } = parseArgs({
        args: argv,
        options: {
          port: { type: 'string' },
          'data-dir': { type: 'string' },
          schema: { type: 'string' },
          workflows: { type: 'string' },
          fault: { type: 'string', multiple: true },
          'fault-seed': { type: 'string' },
          tour: { type: 'boolean' },
          once: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      }));
    } catch (error) {
      io.stderr(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    let port;
    try {
      port = portOf(values.port, DEFAULT_PORT);
    } catch {
      io.stderr(`--port takes a port number\n\n${USAGE}`);
      return 2;
    }
    const { startSandbox, parseFaultSpec } = await import('../sandbox/index.js');
    let faults;
    try {
      faults = parseFaultSpec(values.fault ?? []);
    } catch (error) {
      io.stderr(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    let sb;
    try {
      sb = await startSandbox({
        port,
        dataDir: values['data-dir'],
        schemaDir: values.schema,
        workflowsDir: values.workflows,
        faults,
        faultSeed: values['fault-seed'] === undefined ? undefined : Number(values['fault-seed']),
        log: (line) => io.stdout(`  · ${line}\n`),
      });
    } catch (error) {
      io.stderr(`the sandbox did not start: ${(error as Error).message}\n`);
      return 1;
    }
    io.stdout(banner(sb));
    let code = 0;
    if (values.tour) {
      io.stdout('\nTour: every block end to end\n');
      const { runTour } = await import('../sandbox/tour.js');
      const passed = await runTour(sb, io.stdout);
      io.stdout(passed ? '\nThe tour passed.\n' : '\nThe tour failed; see the ✗ lines above.\n');
      code = passed ? 0 : 1;
    }
    if (!values.once) {
      io.stdout(howTo(sb));
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    }
    await sb.close();
    await closeSharedDispatcher();
    return code;
  },
};
