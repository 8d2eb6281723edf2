import { Pacer } from '../../src/harness/pace/pacer.js';
import type { ExecuteOptions } from '../../src/harness/types.js';
import { executeTool, getService } from '../../src/index.js';
import { mockService } from './mock-service.js';

/** Retries that wait a millisecond or two, so a test of a retried call takes no time. */
export const fast: ExecuteOptions = { retry: { baseDelayMs: 1, maxDelayMs: 4 } };

/**
 * A mocked service and a runner bound to it, derived from the registered service: its
 * connection says which param holds the credential, where the base URL goes (its param, or its
 * default) and whether calls are paced (then the runner has a pacer of its own, so tests do not
 * pace each other). `run(id, params)` adds the credential and base URL to the params.
 */
export function serviceRunner(serviceId: string, { credential, baseUrl }: { credential: string; baseUrl?: string }) {
  const service = getService(serviceId);
  if (!service) throw new Error(`no service ${serviceId} is registered`);
  const { connection } = service;
  const base = baseUrl ?? connection.baseUrl.default;
  if (base === undefined) throw new Error(`service ${serviceId} has no default base URL: pass baseUrl`);
  const svc = mockService(new URL(base).origin);
  const fixed: Record<string, string> = { [connection.credential.param]: credential };
  if (connection.baseUrl.param) fixed[connection.baseUrl.param] = base;
  const pacer = connection.pacing ? new Pacer() : undefined;
  const run = (id: string, params: Record<string, unknown>, options: ExecuteOptions = {}) =>
    executeTool(id, { ...fixed, ...params }, { dispatcher: svc.agent, ...(pacer && { pacer }), ...fast, ...options });
  return { ...svc, run, pacer, params: fixed };
}
