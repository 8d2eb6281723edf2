import { listServices } from '../../../registry.js';

/** The base URLs a client may send in a header, by origin (scheme, host and port). */
export interface BaseUrlAllowList {
  allows(url: string): boolean;
  /** The allowed origins, for an error message. */
  describe(): string;
}

const originOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url);
    // A URL with a user name or password is refused whatever its host: its credential would travel on.
    if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.username || parsed.password) return undefined;
    return parsed.origin;
  } catch {
    return undefined;
  }
};

/**
 * The services' public API origins (each connection's default and public base URLs), plus
 * the operator's. Anything else would let a caller point the server at the network it sits in.
 */
export function baseUrlAllowList(extra: readonly string[] = []): BaseUrlAllowList {
  const origins = new Set<string>();
  for (const service of listServices()) {
    const { default: fallback, publicUrls = [] } = service.connection.baseUrl;
    for (const url of fallback ? [fallback, ...publicUrls] : publicUrls) {
      const origin = originOf(url);
      if (origin) origins.add(origin);
    }
  }
  for (const url of extra) {
    const origin = originOf(url);
    if (!origin) throw new Error('an allowed base URL must be an http(s) URL without a user name or password');
    origins.add(origin);
  }
  return {
    allows: (url) => {
      const origin = originOf(url);
      return origin !== undefined && origins.has(origin);
    },
    describe: () => [...origins].join(', '),
  };
}
