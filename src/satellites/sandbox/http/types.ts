import type { IncomingHttpHeaders } from 'node:http';

/** A request as a service emulator sees it: the path is relative to the service's prefix. */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as received (still gzipped if it was sent gzipped). */
  body: Buffer;
  /** Path parameters filled in by the router (`:name` segments). */
  params: Record<string, string>;
  /** The origin of the port the request came in on, e.g. http://127.0.0.1:4100. */
  origin: string;
  /**
   * The service's base URL as this request reached it, for URLs in bodies: the origin and the
   * service's prefix (http://127.0.0.1:4100/tinybird), or the origin alone on the service's own port.
   */
  base: string;
}

/**
 * What a handler answers. An object or array body is sent as JSON, a string as
 * text/plain (unless `headers` set a content type), bytes as they are, and
 * `undefined` as no body and no content type.
 */
export interface SandboxResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Handler = (req: SandboxRequest) => SandboxResponse | Promise<SandboxResponse>;

/** One emulated service, mounted under a path prefix or at the root of a port. */
export interface ServiceApp {
  handle: Handler;
  /** An injected fault (429 or 503) in the service's own error format. */
  faultReply(status: 429 | 503, req: SandboxRequest): SandboxResponse;
}
