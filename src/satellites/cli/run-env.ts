import { settingsFromEnv } from '../../hosts/agents/env-settings.js';
import { userSide } from '../../hosts/agents/options.js';
import type { AnyTool } from '../../harness/types.js';

/**
 * `flowblocks run`'s params and endpoints with the service's credential and base URL taken
 * from the environment (TINYBIRD_TOKEN, LOOPS_API_KEY, …), as `ingest` and `mcp` read them:
 * what the command line gives wins, and a variable that is unset changes nothing.
 */
export function withEnvSettings(
  tool: AnyTool,
  params: Record<string, unknown>,
  endpoints: Record<string, string> | undefined,
  env: Record<string, string | undefined>,
): { params: Record<string, unknown>; endpoints: Record<string, string> | undefined } {
  const settings = settingsFromEnv(env)[tool.service];
  if (!settings) return { params, endpoints };
  const fromEnv = userSide(tool, settings);
  // `params` is a dictionary (no prototype): assigned onto, so a `__proto__` param stays a param.
  const merged = Object.assign(Object.create(null) as Record<string, unknown>, fromEnv.params, params);
  const fromEnvEndpoints = fromEnv.endpoints && settings.base_url !== undefined ? fromEnv.endpoints : undefined;
  return { params: merged, endpoints: fromEnvEndpoints || endpoints ? { ...fromEnvEndpoints, ...endpoints } : undefined };
}
