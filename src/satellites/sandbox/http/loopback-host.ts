/**
 * The names a local server answers to. A page on a DNS name that an attacker rebinds to
 * 127.0.0.1 still sends its own name as Host, so checking Host defeats DNS rebinding; the
 * sandbox and the preview server share this one check.
 */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** True when a Host header names a loopback name with this server's port. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  const given = (host ?? '').toLowerCase();
  // Port 80 is the default: a browser leaves it out of Host.
  return LOOPBACK_NAMES.some((name) => given === `${name}:${port}` || (port === 80 && given === name));
}

/**
 * True when an Origin header is a page served over http from a loopback name, on `port`
 * when given. `null` (sandboxed frames, files) and every other site are not.
 */
export function isLoopbackOrigin(origin: string, port?: number): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || url.origin !== origin.toLowerCase() || !LOOPBACK_NAMES.includes(url.hostname)) return false;
  return port === undefined || Number(url.port || 80) === port;
}
