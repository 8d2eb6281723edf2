import type { Handler, SandboxRequest, SandboxResponse } from './types.js';

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

/** What a service answers when no route matches, or the path matches under another method. */
export interface RouterFallbacks {
  notFound(req: SandboxRequest): SandboxResponse;
  methodNotAllowed(req: SandboxRequest): SandboxResponse;
}

/**
 * A small method + path router. `:name` matches one segment; `:name+` matches the rest.
 * A path known under another method answers 405, as every emulated service does.
 */
export function createRouter(fallbacks: RouterFallbacks) {
  const routes: Route[] = [];
  const add = (method: string, path: string, handler: Handler) => {
    const keys: string[] = [];
    const source = path.replace(/:(\w+)(\+?)/g, (_, key: string, rest: string) => {
      keys.push(key);
      return rest ? '(.+)' : '([^/]+)';
    });
    routes.push({ method, pattern: new RegExp(`^${source}$`), keys, handler });
  };
  const handle: Handler = (req) => {
    let pathKnown = false;
    for (const route of routes) {
      const match = route.pattern.exec(req.path);
      if (!match) continue;
      pathKnown = true;
      if (route.method !== req.method) continue;
      route.keys.forEach((key, i) => (req.params[key] = decodeURIComponent(match[i + 1] ?? '')));
      return route.handler(req);
    }
    return pathKnown ? fallbacks.methodNotAllowed(req) : fallbacks.notFound(req);
  };
  return {
    get: (path: string, handler: Handler) => add('GET', path, handler),
    post: (path: string, handler: Handler) => add('POST', path, handler),
    put: (path: string, handler: Handler) => add('PUT', path, handler),
    delete: (path: string, handler: Handler) => add('DELETE', path, handler),
    handle,
  };
}
