import type { IncomingMessage } from 'node:http';
import { isLoopbackHost, isLoopbackOrigin } from './loopback-host.js';

/** Methods that change state: a cross-site page must not reach the admin routes with them. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const isAdminPath = (servicePath: string) => servicePath === '/_sandbox' || servicePath.startsWith('/_sandbox/');

/**
 * Why the sandbox refuses a request from outside the developer's own machine, or
 * undefined when it answers it:
 * - every route: Host must be a loopback name with the sandbox's port (no DNS rebinding),
 *   and an Origin, when a browser sends one, must be a loopback page (any port, so a local
 *   page such as the preview can call the services);
 * - `/_sandbox` admin routes: an Origin must be the sandbox's own, and a state-changing
 *   request carries JSON or nothing, since a cross-site form can send text/plain without
 *   a CORS preflight.
 */
export function foreignRequestRefusal(req: IncomingMessage, servicePath: string, port: number): string | undefined {
  if (!isLoopbackHost(req.headers.host, port)) return 'the sandbox answers only requests to 127.0.0.1, localhost or [::1] on its own port';
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) return 'the sandbox answers only pages served from 127.0.0.1, localhost or [::1]';
  if (!isAdminPath(servicePath)) return undefined;
  if (origin !== undefined && !isLoopbackOrigin(origin, port)) return 'the sandbox admin routes answer only the sandbox itself';
  if (READS.has(req.method ?? 'GET')) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (type === 'application/json' || (type === '' && !hasBody)) return undefined;
  return 'the sandbox admin routes take JSON bodies only (Content-Type: application/json)';
}
