import { closeSharedDispatcher } from '../../harness/send/dispatcher.js';
import { untilStopped } from './until-stopped.js';
import { parseCommandArgs, type CliCommand, type CliIo } from './command.js';
import { portOf } from './params.js';
import { tryIt } from './sandbox-try-it.js';
import type { Sandbox, SandboxService } from '../sandbox/index.js';

const USAGE = `Usage: flowblocks sandbox [options]            start the local sandbox (Tinybird, Loops, workflow platform)
       flowblocks sandbox outbox [--url <origin>]    print the e-mails a running sandbox has "sent"

Options:
  --port <n>              port of the prefixed URLs on 127.0.0.1 (default 4100; 0 picks a free one)
  --tinybird-port <n>     Tinybird at the root of its own port, for @tinybirdco/sdk and tb (default 7181)
  --loops-port <n>        Loops at the root of its own port, for the loops SDK (default 7182)
  --workflow-port <n>     the workflow platform at the root of its own port (default 7183)
  --no-service-ports      serve only the prefixed URLs on --port
  --admin-port <n>        the workflow admin routes (put, deploy, run workflows; notifications), served on
                          this port only, never on a service port (default 0: a free one, printed)
  --data-dir <dir>        keep state across restarts in this directory
  --no-seed               start with an empty events Data Source (by default it holds 400 demo rows)
  --schema <dir>          Tinybird .datasource and .pipe files to add to the built-in ones
  --workflows <dir>       workflow .json files to add to the built-in ones (see docs/sandbox.md)
  --fault <spec>          inject faults, e.g. tinybird:429=0.1,5xx=0.05,latency=200,drop=0.01 (repeatable;
                          429, 5xx and drop are probabilities from 0 to 1, latency ms from 0)
  --fault-seed <n>        seed of the fault dice, to replay a run
  --import-from <origin>  a loopback origin Tinybird imports from URL may fetch, besides the sandbox's own
                          ports (repeatable), e.g. http://127.0.0.1:8000; no other URL is fetched
  --tour                  run the tour: every block end to end, with a short report
  --once                  exit after starting (and after the tour) instead of serving until Ctrl-C

Needs chdb (embedded ClickHouse) for the Tinybird emulator: npm install chdb
Exit codes: 0 done, 1 the tour or the sandbox failed, 2 usage error.
`;

const OUTBOX_USAGE = `Usage: flowblocks sandbox outbox [--url <origin>]

Prints the e-mails a running sandbox has "sent" (Loops' transactional sends), oldest first.
  --url <origin>          the sandbox's prefixed origin (default http://127.0.0.1:4100)
Exit codes: 0 printed, 1 no sandbox answered, 2 usage error.
`;

const DEFAULT_PORT = 4100;
/** Tinybird on tinybird-local's port, so its clients' local defaults reach the sandbox; Loops and the platform beside it. */
const DEFAULT_SERVICE_PORTS = { tinybird: 7181, loops: 7182, workflow: 7183 } as const;
const PORT_FLAGS = { tinybird: '--tinybird-port', loops: '--loops-port', workflow: '--workflow-port' } as const;
const SERVICE_LABELS = { tinybird: 'Tinybird', loops: 'Loops', workflow: 'the workflow platform' } as const;

/** The flowblocks sandbox answering on `port` (its `/` index names itself and its pid), if one does; any port of it. */
async function earlierSandbox(port: number): Promise<{ pid: number } | undefined> {
  const origins = [`http://127.0.0.1:${port}`];
  // A service port answers with its service at the root: the prefixed port (default 4100) has the index.
  if (port !== DEFAULT_PORT) origins.push(`http://127.0.0.1:${DEFAULT_PORT}`);
  for (const origin of origins) {
    try {
      const res = await fetch(`${origin}/`, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { flowblocks?: unknown; pid?: unknown; services?: Record<string, { baseUrl?: string; ownPortUrl?: string }> };
      if (body.flowblocks !== 'sandbox' || typeof body.pid !== 'number') continue;
      const ports = Object.values(body.services ?? {}).flatMap((s) => [s.baseUrl, s.ownPortUrl]).map((u) => (u ? new URL(u).port : ''));
      if (origin.endsWith(`:${port}`) || ports.includes(String(port))) return { pid: body.pid };
    } catch {
      /* not a sandbox */
    }
  }
  return undefined;
}

async function printOutbox(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(argv, { url: { type: 'string' } }, OUTBOX_USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
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

function banner(sb: Sandbox): string {
  const c = sb.credentials;
  const own = sb.serviceUrls;
  const main = sb.urls;
  const loopsRoot = (own ?? main).loops.replace(/v1$/, '');
  return `flowblocks sandbox on 127.0.0.1 (demo credentials, printed on purpose: they open only this sandbox)

  Tinybird   ${(own ?? main).tinybird.padEnd(34)} @tinybirdco/sdk baseUrl, tb --host, curl, tools' base_url
             tokens   admin ${c.tinybird.adminToken} · read ${c.tinybird.readToken} · append:events ${c.tinybird.appendToken}
  Loops      ${(own ?? main).loops.padEnd(34)} tools' --endpoint loops=…; loops SDK: client.apiRoot = '${loopsRoot}'
             apiKey   ${c.loops.apiKey}
             outbox   ${sb.admin.loopsOutbox}
  Workflow   ${(own ?? main).workflow.padEnd(34)} tools' base_url, curl
             apiKey   ${c.workflow.apiKey} (workspace ${c.workflow.workspaceId}, team plan) · ${c.workflow.freeApiKey} (${c.workflow.freeWorkspaceId}, free plan)
             admin    ${sb.admin.workflow} (workflows, notifications; this port only)
${
  own
    ? `
  The same services on one port, under prefixes (the tools, the tour): ${main.tinybird} · ${main.loops} · ${main.workflow}
`
    : `
  Service ports are off (--no-service-ports): @tinybirdco/sdk and tb need Tinybird at the root of a port (--tinybird-port).
`
}`;
}

export const command: CliCommand = {
  summary: 'start the local sandbox of the three services (--tour runs every block)',
  subcommands: { outbox: 'print the e-mails a running sandbox has "sent"' },
  async run(argv, io) {
    if (argv[0] === 'outbox') return printOutbox(argv.slice(1), io);
    const parsed = parseCommandArgs(
      argv,
      {
        port: { type: 'string' },
        'tinybird-port': { type: 'string' },
        'loops-port': { type: 'string' },
        'workflow-port': { type: 'string' },
        'no-service-ports': { type: 'boolean' },
        'admin-port': { type: 'string' },
        'no-seed': { type: 'boolean' },
        'data-dir': { type: 'string' },
        schema: { type: 'string' },
        workflows: { type: 'string' },
        fault: { type: 'string', multiple: true },
        'fault-seed': { type: 'string' },
        'import-from': { type: 'string', multiple: true },
        tour: { type: 'boolean' },
        once: { type: 'boolean' },
      },
      USAGE,
      io,
    );
    if (typeof parsed === 'number') return parsed;
    const { values } = parsed;
    let port;
    let adminPort;
    let servicePorts: Record<SandboxService, number> | false = false;
    try {
      port = portOf(values.port, DEFAULT_PORT, '--port');
      adminPort = portOf(values['admin-port'], 0, '--admin-port');
      if (!values['no-service-ports']) {
        servicePorts = { ...DEFAULT_SERVICE_PORTS };
        for (const service of Object.keys(PORT_FLAGS) as SandboxService[]) {
          servicePorts[service] = portOf(values[`${service}-port`], DEFAULT_SERVICE_PORTS[service], PORT_FLAGS[service]);
        }
      } else {
        const given = (Object.keys(PORT_FLAGS) as SandboxService[]).find((service) => values[`${service}-port`] !== undefined);
        if (given) throw new Error(`${PORT_FLAGS[given]} and --no-service-ports do not go together`);
      }
    } catch (error) {
      io.stderr(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    const { startSandbox, parseFaultSpec, SandboxPortInUseError } = await import('../sandbox/index.js');
    const { importOrigins } = await import('../sandbox/tinybird/import-file.js');
    let faults;
    let importFrom;
    try {
      faults = parseFaultSpec(values.fault ?? []);
      importFrom = importOrigins(values['import-from'] ?? []);
    } catch (error) {
      io.stderr(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    // The tour's file server starts first: its origin is one the sandbox may import from.
    const tour = values.tour ? await import('../sandbox/tour.js') : undefined;
    const tourFiles = tour ? await tour.startTourServer() : undefined;
    let sb;
    try {
      sb = await startSandbox({
        port,
        servicePorts,
        adminPort,
        dataDir: values['data-dir'],
        seed: !values['no-seed'],
        schemaDir: values.schema,
        workflowsDir: values.workflows,
        faults,
        faultSeed: values['fault-seed'] === undefined ? undefined : Number(values['fault-seed']),
        tinybird: { importFrom: tourFiles ? [...importFrom, tourFiles.origin] : importFrom },
        log: (line) => io.stdout(`  · ${line}\n`),
      });
    } catch (error) {
      let message = (error as Error).message;
      if (error instanceof SandboxPortInUseError) {
        const earlier = await earlierSandbox(error.port);
        if (earlier) {
          io.stderr(
            `the sandbox did not start: port ${error.port} is taken by an earlier flowblocks sandbox (pid ${earlier.pid}, still running): stop it with kill ${earlier.pid} (or Ctrl-C in its terminal), or start this one elsewhere with ${error.service ? PORT_FLAGS[error.service] : '--port'} <n>\n`,
          );
          return 1;
        }
        message = error.service
          ? `port ${error.port}, asked for ${SERVICE_LABELS[error.service]}, is already in use${error.service === 'tinybird' ? ' (is tinybird-local running?)' : ''}: choose another with ${PORT_FLAGS[error.service]} <n> (0 picks a free one), or serve only the prefixed URLs with --no-service-ports`
          : `port ${error.port}, asked for the prefixed URLs, is already in use: choose another with --port <n> (0 picks a free one)`;
      }
      io.stderr(`the sandbox did not start: ${message}\n`);
      await tourFiles?.close();
      return 1;
    }
    io.stdout(banner(sb));
    let code = 0;
    if (tour && tourFiles) {
      io.stdout('\nTour: every block end to end\n');
      const passed = await tour.runTour(sb, io.stdout, tourFiles);
      io.stdout(passed ? '\nThe tour passed.\n' : '\nThe tour failed; see the ✗ lines above.\n');
      code = passed ? 0 : 1;
    }
    if (!values.once) {
      io.stdout(tryIt(sb));
      if ((await untilStopped()) === 'parent-gone') io.stdout('The process that started this one has ended: stopping.\n');
    }
    await sb.close();
    await closeSharedDispatcher();
    return code;
  },
};
