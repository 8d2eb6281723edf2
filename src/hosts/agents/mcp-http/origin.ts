import { isLoopbackOrigin } from '../../shared/loopback-host.js';

/**
 * Whether a request's `Origin` may reach the server (MCP's rule against DNS rebinding: a page
 * on a name an attacker points at this server sends its own origin). No Origin (a program, not
 * a browser), a page served from a loopback name, or one of the operator's origins.
 */
export function originCheck(allowOrigins: readonly string[] = []): (origin: string | undefined) => boolean {
  const allowed = new Set(
    allowOrigins.map((origin) => {
      try {
        return new URL(origin).origin;
      } catch {
        throw new Error(`an allowed origin must be a URL such as https://sim.example.com`);
      }
    }),
  );
  return (origin) => origin === undefined || isLoopbackOrigin(origin) || allowed.has(origin.toLowerCase());
}
