/**
 * `flowblocks/sandbox`: one local server that emulates the event-data service
 * (Tinybird-compatible, on chdb), the e-mail service (Loops-compatible) and the workflow
 * platform, so every tool runs against it unchanged.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSession } from './tinybird/chdb.js';
import { createTinybird, type TinybirdOptions } from './tinybird/app.js';
import { createLoops, type LoopsOptions } from './loops/app.js';
import { createWorkflowPlatform, type WorkflowPlatformOptions } from './workflow/app.js';
import { datasources as fixtureDatasources, pipes as fixturePipes } from './fixtures/tinybird.js';
import { workflows as fixtureWorkflows } from './fixtures/workflows.js';
import { demoEvents } from './fixtures/seed.js';
import { LOOPS_API_KEY, TINYBIRD_TOKENS, WORKFLOW_API_KEYS } from './fixtures/credentials.js';
import { createFaultInjector, type FaultsOption } from './http/faults.js';
import { startServer, type Mount } from './http/server.js';
import { readDir, readWorkflowFiles } from './files.js';

export type { FaultConfig, FaultsOption } from './http/faults.js';
export type { WorkflowInput as WorkflowDefinition } from './workflow/definition.js';
export { parseFaultSpec } from './http/faults.js';

/** The three emulated services. */
export type SandboxService = 'tinybird' | 'loops' | 'workflow';

/**
 * Base URLs of the services: `tinybird` and `workflow` are the tools' `base_url` (and
 * `@tinybirdco/sdk`'s `baseUrl`); `loops` goes in the tools' `options.endpoints.loops` (the
 * `loops` SDK's `apiRoot` is the same URL without `v1`).
 */
export interface SandboxUrls {
  tinybird: string;
  loops: string;
  workflow: string;
}

/** A port on 127.0.0.1 per service; 0 picks a free one. */
export type ServicePorts = Partial<Record<SandboxService, number>>;

export interface SandboxOptions {
  /** Port on 127.0.0.1 of the prefixed URLs (`/tinybird`, `/loops`, `/workflow`); 0 (the default) picks a free one. */
  port?: number;
  /**
   * Each service also served at the root of a port of its own, for clients that build paths
   * from the origin (`@tinybirdco/sdk`). A service left out, and the default, takes a free
   * port (0); `false` opens none. The CLI's defaults are 7181, 7182 and 7183.
   */
  servicePorts?: ServicePorts | false;
  /** Keeps state across restarts in this directory; without it state lives in memory and a temp dir. */
  dataDir?: string;
  /** Faults to inject per service (429s, 5xx, latency, dropped connections). */
  faults?: FaultsOption;
  /** Seed of the fault dice, to replay a run. */
  faultSeed?: number;
  tinybird?: Partial<TinybirdOptions>;
  /** A directory of Tinybird `.datasource` and `.pipe` files, added to the built-in ones. */
  schemaDir?: string;
  loops?: Partial<LoopsOptions>;
  /** A directory of workflow `.json` files (see docs/sandbox.md), added to the built-in ones. */
  workflowsDir?: string;
  /** `workflows` are added to the built-in ones; `notifications` configure workspaces at start. */
  workflow?: Partial<WorkflowPlatformOptions>;
  /**
   * Fill an empty `events` Data Source with a few hundred demo rows (a week of page views,
   * sign-ups, logins and purchases), so a first query answers with data. Off by default;
   * `flowblocks sandbox` and `flowblocks preview` turn it on (`--no-seed` turns it off).
   */
  seed?: boolean;
  /** Receives the sandbox's log lines (notification deliveries, alerts). Silent by default. */
  log?: (line: string) => void;
  /** Receives internal errors (default: written to stderr). */
  onError?: (error: unknown) => void;
}

export interface SandboxCredentials {
  tinybird: { adminToken: string; readToken: string; appendToken: string };
  loops: { apiKey: string };
  /** `apiKey` belongs to workspace `workspaceId` (team plan); `freeApiKey` to `freeWorkspaceId` (free plan). */
  workflow: { apiKey: string; workspaceId: string; freeApiKey: string; freeWorkspaceId: string };
}

export interface Sandbox {
  /** Base URLs on the one port, under prefixes: `tinybird` and `workflow` are the tools' `base_url`; `loops` goes in `options.endpoints.loops`. */
  urls: SandboxUrls;
  /**
   * The same URLs on each service's own port, at its root (e.g. `http://127.0.0.1:7181`):
   * what the official clients take. Absent when `servicePorts` is `false`.
   */
  serviceUrls?: SandboxUrls;
  credentials: SandboxCredentials;
  /** Sandbox-only endpoints: the Loops outbox and received events, and workflow administration. */
  admin: { loopsOutbox: string; loopsEvents: string; workflow: string };
  /** Replaces the injected faults while running. */
  setFaults(faults: FaultsOption): void;
  close(): Promise<void>;
}

const tinybirdToken = (name: string) => TINYBIRD_TOKENS.find((t) => t.name === name)!.token;

const SERVICE_NAMES: Record<SandboxService, string> = { tinybird: 'Tinybird', loops: 'Loops', workflow: 'workflow platform' };

/** A port the sandbox was asked to listen on is taken; `service` is undefined for the prefixed port. */
export class SandboxPortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly service?: SandboxService,
  ) {
    super(
      service
        ? `port ${port} on 127.0.0.1, the ${SERVICE_NAMES[service]} port (servicePorts.${service}), is already in use`
        : `port ${port} on 127.0.0.1, the sandbox port (port), is already in use`,
    );
    this.name = 'SandboxPortInUseError';
  }
}

/** The service's base URL from the origin of a port and the path its app is mounted under. */
const serviceUrls = (at: (service: SandboxService, prefix: string) => string): SandboxUrls => ({
  tinybird: at('tinybird', '/tinybird'),
  loops: `${at('loops', '/loops')}/api/v1`,
  workflow: at('workflow', '/workflow'),
});

/** Sends the demo rows to `events` through the sandbox's own Events API, unless it already holds rows (a kept `dataDir`). */
async function seedEvents(base: string, token: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const count = await fetch(`${base}/v0/sql?q=${encodeURIComponent('SELECT count() AS n FROM events FORMAT JSON')}`, { headers });
  const rows = count.ok ? ((await count.json()) as { data: { n: number | string }[] }).data[0]?.n : undefined;
  if (Number(rows) > 0) return;
  const body = demoEvents().map((row) => JSON.stringify(row)).join('\n');
  const sent = await fetch(`${base}/v0/events?name=events&wait=true`, { method: 'POST', headers, body });
  if (!sent.ok) throw new Error(`seeding the demo events failed: HTTP ${sent.status} ${await sent.text()}`);
}

/** What the sandbox's `/` answers: recognisably a flowblocks sandbox (with its pid), its services, credentials and admin routes. */
export interface SandboxIndex {
  flowblocks: 'sandbox';
  pid: number;
  services: Record<SandboxService, { name: string; baseUrl: string; ownPortUrl?: string; credentials: Record<string, string> }>;
  admin: Record<string, string>;
}

function sandboxIndex(origin: string, own: Partial<Record<SandboxService, string>>, c: SandboxCredentials): SandboxIndex {
  const urls = serviceUrls((_, prefix) => `${origin}${prefix}`);
  const ownUrls = own.tinybird ? serviceUrls((service) => own[service]!) : undefined;
  const entry = (service: SandboxService, credentials: Record<string, string>) => ({
    name: SERVICE_NAMES[service],
    baseUrl: urls[service],
    ...(ownUrls ? { ownPortUrl: ownUrls[service] } : {}),
    credentials,
  });
  return {
    flowblocks: 'sandbox',
    pid: process.pid,
    services: {
      tinybird: entry('tinybird', { adminToken: c.tinybird.adminToken, readToken: c.tinybird.readToken, appendToken: c.tinybird.appendToken }),
      loops: entry('loops', { apiKey: c.loops.apiKey }),
      workflow: entry('workflow', { apiKey: c.workflow.apiKey, workspaceId: c.workflow.workspaceId, freeApiKey: c.workflow.freeApiKey, freeWorkspaceId: c.workflow.freeWorkspaceId }),
    },
    admin: {
      loopsOutbox: `GET ${origin}/loops/_sandbox/outbox`,
      loopsEvents: `GET ${origin}/loops/_sandbox/events`,
      workflows: `GET ${origin}/workflow/_sandbox/workflows`,
      workflow: `PUT ${origin}/workflow/_sandbox/workflows/:id · POST …/:id/deploy, …/:id/undeploy, …/:id/run`,
      notifications: `PUT|DELETE ${origin}/workflow/_sandbox/workspaces/:id/notifications · GET …/:id/deliveries`,
    },
  };
}

/**
 * Starts the sandbox on 127.0.0.1. chdb keeps one data directory per process, so one
 * sandbox runs per process at a time; close it before starting another.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const session = await openSession(options.dataDir ? join(options.dataDir, 'chdb') : undefined);
  const log = options.log ?? (() => {});
  let origin = '';
  const ownOrigins: Partial<Record<SandboxService, string>> = {};
  const urls = () => serviceUrls((_, prefix) => `${origin}${prefix}`);
  const [team, free] = WORKFLOW_API_KEYS as [(typeof WORKFLOW_API_KEYS)[number], (typeof WORKFLOW_API_KEYS)[number]];
  const credentials: SandboxCredentials = {
    tinybird: { adminToken: tinybirdToken('admin'), readToken: tinybirdToken('read'), appendToken: tinybirdToken('append_events') },
    loops: { apiKey: LOOPS_API_KEY },
    workflow: { apiKey: team.key, workspaceId: team.workspaceId, freeApiKey: free.key, freeWorkspaceId: free.workspaceId },
  };
  const cleanups: (() => void | Promise<void>)[] = [() => session.close()];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const schemaFiles = options.schemaDir
      ? { datasources: readDir(options.schemaDir, '.datasource'), pipes: readDir(options.schemaDir, '.pipe') }
      : { datasources: {}, pipes: {} };
    const tinybird = await createTinybird(
      session,
      {
        tokens: TINYBIRD_TOKENS,
        ...options.tinybird,
        datasources: { ...fixtureDatasources, ...schemaFiles.datasources, ...options.tinybird?.datasources },
        pipes: { ...fixturePipes, ...schemaFiles.pipes, ...options.tinybird?.pipes },
      },
      options.dataDir,
      // An import fetches only from the sandbox's own ports (and tinybird.importFrom).
      () => [origin, ...Object.values(ownOrigins)].filter((o): o is string => Boolean(o)),
    );
    cleanups.push(() => tinybird.close());
    const loops = createLoops({ apiKeys: [LOOPS_API_KEY], ...options.loops }, options.dataDir);
    const workflow = createWorkflowPlatform(
      {
        apiKeys: [...WORKFLOW_API_KEYS],
        ...options.workflow,
        workflows: [
          ...fixtureWorkflows,
          ...(options.workflowsDir ? readWorkflowFiles(options.workflowsDir) : []),
          ...(options.workflow?.workflows ?? []),
        ],
      },
      // What a running workflow's blocks see: the sandbox's own URLs and demo credentials.
      () => ({
        env: {
          TINYBIRD_URL: urls().tinybird,
          TINYBIRD_TOKEN: credentials.tinybird.adminToken,
          LOOPS_API_KEY: credentials.loops.apiKey,
          WORKFLOW_URL: urls().workflow,
          WORKFLOW_API_KEY: credentials.workflow.apiKey,
        },
        endpoints: { loops: urls().loops },
      }),
      options.dataDir,
      log,
    );
    // Running workflows call the servers, so they finish before the servers close.
    const servers: { close(): Promise<void> }[] = [];
    cleanups.push(
      async () => {
        for (const server of servers.reverse()) await server.close();
      },
      () => workflow.close(),
    );
    // No faults until the sandbox's own seeding is done: they are for the caller's requests.
    const faults = createFaultInjector({}, options.faultSeed);
    const onError = options.onError ?? ((error: unknown) => process.stderr.write(`sandbox: ${(error as Error).stack ?? String(error)}\n`));
    const listen = async (mounts: Mount[], port: number, service?: SandboxService, index?: () => unknown) => {
      try {
        const server = await startServer(mounts, { port, faults, onError, index });
        servers.push(server);
        return server.origin;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new SandboxPortInUseError(port, service);
        throw error;
      }
    };
    const apps = { tinybird: tinybird.app, loops: loops.app, workflow: workflow.app };
    const services = Object.keys(apps) as SandboxService[];
    origin = await listen(
      services.map((service) => ({ prefix: `/${service}`, service, app: apps[service] })),
      options.port ?? 0,
      undefined,
      () => sandboxIndex(origin, ownOrigins, credentials),
    );
    // Each service at the root of its own port, with the same checks, faults and state.
    if (options.servicePorts !== false) {
      for (const service of services) {
        ownOrigins[service] = await listen([{ prefix: '', service, app: apps[service] }], options.servicePorts?.[service] ?? 0, service);
      }
    }
    if (options.seed) await seedEvents(`${origin}/tinybird`, credentials.tinybird.adminToken);
    faults.set(options.faults ?? {});
    return {
      urls: urls(),
      serviceUrls: options.servicePorts === false ? undefined : serviceUrls((service) => ownOrigins[service]!),
      credentials,
      admin: {
        loopsOutbox: `${origin}/loops/_sandbox/outbox`,
        loopsEvents: `${origin}/loops/_sandbox/events`,
        workflow: `${origin}/workflow/_sandbox`,
      },
      setFaults: (next) => faults.set(next),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
