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
import { TINYBIRD_TOKENS } from './fixtures/credentials.js';
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
  /** Receives internal errors (default: written to stderr). */
  onError?: (error: unknown) => void;
}

export interface SandboxCredentials {
  tinybird: { adminToken: string; readToken: string; appendToken: string };
}

export interface Sandbox {
  /** Base URLs: `tinybird` is a tool's `base_url`; the others go in `options.endpoints`. */
  urls: { tinybird: string };
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
    const faults = createFaultInjector(options.faults, options.faultSeed);
    const server = await startServer([{ prefix: '/tinybird', service: 'tinybird', app: tinybird.app }], {
      port: options.port ?? 0,
      faults,
      onError: options.onError ?? ((error) => process.stderr.write(`sandbox: ${(error as Error).stack ?? String(error)}\n`)),
    });
    origin = server.origin;
    return {
      urls: { tinybird: `${origin}/tinybird` },
      credentials: {
        tinybird: { adminToken: token('admin'), readToken: token('read'), appendToken: token('append_events') },
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
