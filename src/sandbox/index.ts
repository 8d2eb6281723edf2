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
import { LOOPS_API_KEY, TINYBIRD_TOKENS, WORKFLOW_API_KEYS } from './fixtures/credentials.js';
import { createFaultInjector, type FaultsOption } from './http/faults.js';
import { startServer } from './http/server.js';
import { readDir, readWorkflowFiles } from './files.js';

export type { FaultConfig, FaultsOption } from './http/faults.js';
export type { WorkflowInput as WorkflowDefinition } from './workflow/definition.js';
export { parseFaultSpec } from './http/faults.js';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
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
  /** Base URLs: `tinybird` and `workflow` are the tools' `base_url`; `loops` goes in `options.endpoints.loops`. */
  urls: { tinybird: string; loops: string; workflow: string };
  credentials: SandboxCredentials;
  /** Sandbox-only endpoints: the Loops outbox and received events, and workflow administration. */
  admin: { loopsOutbox: string; loopsEvents: string; workflow: string };
  /** Replaces the injected faults while running. */
  setFaults(faults: FaultsOption): void;
  close(): Promise<void>;
}

const tinybirdToken = (name: string) => TINYBIRD_TOKENS.find((t) => t.name === name)!.token;

/**
 * Starts the sandbox on 127.0.0.1. chdb keeps one data directory per process, so one
 * sandbox runs per process at a time; close it before starting another.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const session = await openSession(options.dataDir ? join(options.dataDir, 'chdb') : undefined);
  const log = options.log ?? (() => {});
  let origin = '';
  const urls = () => ({ tinybird: `${origin}/tinybird`, loops: `${origin}/loops/api/v1`, workflow: `${origin}/workflow` });
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
      () => urls().tinybird,
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
    const faults = createFaultInjector(options.faults, options.faultSeed);
    const server = await startServer(
      [
        { prefix: '/tinybird', service: 'tinybird', app: tinybird.app },
        { prefix: '/loops', service: 'loops', app: loops.app },
        { prefix: '/workflow', service: 'workflow', app: workflow.app },
      ],
      {
        port: options.port ?? 0,
        faults,
        onError: options.onError ?? ((error) => process.stderr.write(`sandbox: ${(error as Error).stack ?? String(error)}\n`)),
      },
    );
    // Running workflows call the server, so they finish before it closes.
    cleanups.push(() => server.close(), () => workflow.close());
    origin = server.origin;
    return {
      urls: urls(),
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
