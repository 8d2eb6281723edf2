import { getService } from '../../src/registry.js';
import type { AnyTool } from '../../src/harness/types.js';

/** Secrets the tests pass, each changed by URL-encoding (so "no encoded form" is a real check); none appears in anything the mock keeps or writes. */
export const SECRETS = { tinybird: 'p.tb+secret/token=4242:', loops: 'lk_secret+key/4242=@', workflow: 'wf+secret/key=4242' } as Record<string, string>;
export const BASE_URLS = { tinybird: 'https://api.tinybird.co', workflow: 'https://sim.example.com' } as Record<string, string>;

/** The example params of a fixture made whole: the service's credential and base URL added. */
export function fullParams(tool: AnyTool, params: Record<string, unknown>): Record<string, unknown> {
  const connection = getService(tool.service)!.connection;
  const out: Record<string, unknown> = { ...params, [connection.credential.param]: SECRETS[tool.service] };
  if (connection.baseUrl.param) out[connection.baseUrl.param] = BASE_URLS[tool.service];
  return out;
}
