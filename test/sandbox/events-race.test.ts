import { expect, it } from 'vitest';
import type { SandboxRequest } from '../../src/satellites/sandbox/http/types.js';
import { postEvents, type EventsContext } from '../../src/satellites/sandbox/tinybird/events-route.js';
import type { Workspace } from '../../src/satellites/sandbox/tinybird/workspace.js';

it('answers 409 to a first ingest that races another one creating the same Data Source', async () => {
  let finishCreate!: () => void;
  const created = new Set<string>();
  const workspace = {
    get: (name: string) => (created.has(name) ? { name } : undefined),
    createFromEvents: (name: string) =>
      new Promise<void>((resolve) => {
        finishCreate = () => {
          created.add(name);
          resolve();
        };
      }),
    ingest: async () => ({ successful_rows: 1, quarantined_rows: 0 }),
  } as unknown as Workspace;
  const ctx: EventsContext = {
    workspace,
    token: { name: 'admin', token: 't', scopes: ['ADMIN'] },
    limit: { allowed: true, limit: 10, remaining: 9, resetSeconds: 1 },
    maxBytes: 1024,
    creating: new Set(),
    persist: () => {},
  };
  const req = (): SandboxRequest => ({
    method: 'POST',
    path: '/v0/events',
    query: new URLSearchParams({ name: 'raced', wait: 'true' }),
    headers: {},
    body: Buffer.from('{"n":1}\n'),
    params: {},
    origin: 'http://127.0.0.1',
    base: 'http://127.0.0.1',
  });
  const first = postEvents(req(), ctx);
  const second = await postEvents(req(), ctx);
  expect([second.status, second.body]).toEqual([409, "Data Source 'raced' is being created, retry the request\n"]);
  finishCreate();
  expect((await first).status).toBe(200);
  expect((await postEvents(req(), ctx)).status).toBe(200);
});
