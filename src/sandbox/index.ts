/**
 * `flowblocks/sandbox`: one local server that emulates the event-data service
 * (Tinybird-compatible, on chdb), the e-mail service (Loops-compatible) and the workflow
 * platform, so every tool runs against it unchanged.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSession } from './tinybird/chdb.js';
import { createTinybird, type TinybirdOptions } from './tinybird/app.js';
import { datasources as fixtureDatasources, pipes as fixturePipes } from './fixtures/tinybird.js';
import { LOOPS_API_KEY, TINYBIRD_TOKENS } from './fixtures/credentials.js';
import { createLoops, type LoopsOptions } from './loops/app.js';
import { createFaultInjector, type FaultsOption } from './http/faults.js';
import { startServer } from './http/server.js';

export type { FaultConfig, FaultsOption } from './http/faults.js';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** Keeps state across restarts in this directory; without it state lives in a temp dir. */
  dataDir?: string;
  /** Faults to inject per service (429s, 5xx, latency, dropped connections). */
  faults?: FaultsOption;
  /** Seed of the fault dice, to replay a run. */
  faultSeed?: number;
  tinybird?: Partial<TinybirdOptions>;
  loops?: Partial<LoopsOptions>;
  /** Receives internal errors (default: written to stderr). */
  onError?: (error: unknown) => void;
}

export interface SandboxCredentials {
  tinybird: { adminToken: string; readToken: string; appendToken: string };
  loops: { apiKey: string };
}

export interface Sandbox {
  /** Base URLs: `tinybird` is a tool's `base_url`; the others go in `options.endpoints`. */
  urls: { tinybird: string; loops: string };
  /** Sandbox-only views: the Loops outbox (every e-mail "sent") and received events. */
  admin: { loopsOutbox: string; loopsEvents: string };
  credentials: SandboxCredentials;
  /** Replaces the injected faults while running. */
  setFaults(faults: FaultsOption): void;
  close(): Promise<void>;
}

function token(name: string): string {
  return TINYBIRD_TOKENS.find((t) => t.name === name)!.token;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const session = await openSession(options.dataDir ? join(options.dataDir, 'chdb') : undefined);
  let origin = '';
  try {
    const tinybird = await createTinybird(
      session,
      {
        datasources: fixtureDatasources,
        pipes: fixturePipes,
        tokens: TINYBIRD_TOKENS,
        ...options.tinybird,
      },
      options.dataDir,
      () => `${origin}/tinybird`,
    );
    const loops = createLoops({ apiKeys: [LOOPS_API_KEY], ...options.loops }, options.dataDir);
    const faults = createFaultInjector(options.faults, options.faultSeed);
    const mounts = [
      { prefix: '/tinybird', service: 'tinybird', app: tinybird.app },
      { prefix: '/loops', service: 'loops', app: loops.app },
    ];
    const server = await startServer(mounts, {
      port: options.port ?? 0,
      faults,
      onError: options.onError ?? ((error) => process.stderr.write(`sandbox: ${(error as Error).stack ?? String(error)}\n`)),
    });
    origin = server.origin;
    return {
      urls: { tinybird: `${origin}/tinybird`, loops: `${origin}/loops/api/v1` },
      admin: { loopsOutbox: `${origin}/loops/_sandbox/outbox`, loopsEvents: `${origin}/loops/_sandbox/events` },
      credentials: {
        tinybird: { adminToken: token('admin'), readToken: token('read'), appendToken: token('append_events') },
        loops: { apiKey: LOOPS_API_KEY },
      },
      setFaults: (next) => faults.set(next),
      close: async () => {
        tinybird.close();
        await server.close();
        session.close();
      },
    };
  } catch (error) {
    session.close();
    throw error;
  }
}
