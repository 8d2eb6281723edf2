import type { Connection } from '../harness/service.js';
import type { AnyTool, Query } from '../harness/types.js';

/** A value no param holds: letters and digits only, so path encoding leaves it as it is. */
const SENTINEL = 'fbmockvalue7q';
const PLACEHOLDER_CREDENTIAL = 'fixture-credential';
const PLACEHOLDER_BASE = 'https://fixture.invalid';

/** One tool's endpoint, as its own request builder makes it: method, path pattern, fixed query. */
export interface Route {
  toolId: string;
  method: string;
  /** The path relative to the service's base URL, any base path before it. */
  pattern: RegExp;
  /** The param each capture group of `pattern` holds. */
  names: string[];
  /** Literal characters of the path: the more, the more specific the route. */
  literal: number;
  /** Query entries the tool always sends for this call, used to tell apart routes with one path. */
  fixedQuery: [string, string][];
}

export interface RouteMatch {
  toolId: string;
  /** Path values by the tool's param name (`{ name: 'events' }` for `/v0/datasources/events`). */
  pathParams: Record<string, string>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The call's path under the service's base URL and its query, built by the tool itself. */
function build(tool: AnyTool, connection: Connection, params: Record<string, unknown>): { method: string; path: string; query?: Query } | undefined {
  const parsed = tool.params.safeParse(params);
  if (!parsed.success) return undefined;
  const spec = tool.request(parsed.data, {});
  const base = connection.resolveBaseUrl(parsed.data as object, {});
  if (!spec.url.startsWith(base)) throw new Error(`${tool.id}: its request URL ${spec.url} is not under its base URL`);
  return { method: spec.method, path: spec.url.slice(base.length) || '/', query: spec.query };
}

/**
 * The route of one tool, derived from its own request builder: the example call is built once
 * as it is, then once per string param with that param set to a sentinel; a path segment that
 * changes with a param is that param's place. No route is written by hand.
 */
export function routeOf(tool: AnyTool, connection: Connection, example: Record<string, unknown>): Route {
  const full: Record<string, unknown> = { ...example, [connection.credential.param]: PLACEHOLDER_CREDENTIAL };
  if (connection.baseUrl.param) full[connection.baseUrl.param] = PLACEHOLDER_BASE;
  const plain = build(tool, connection, full);
  if (!plain) {
    const issues = tool.params.safeParse(full).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`the example params of ${tool.id} are not valid params of the tool: ${issues}`);
  }
  const segments = plain.path.split('/');
  const parts: (string | { name: string; before: string; after: string })[] = [...segments];
  const variableQuery = new Set<string>();
  for (const [name, value] of Object.entries(example)) {
    if (typeof value !== 'string') continue;
    const trial = build(tool, connection, { ...full, [name]: SENTINEL });
    if (!trial) continue;
    const trialSegments = trial.path.split('/');
    if (trialSegments.length === segments.length) {
      trialSegments.forEach((segment, i) => {
        const at = segment.indexOf(SENTINEL);
        if (at >= 0) parts[i] = { name, before: segment.slice(0, at), after: segment.slice(at + SENTINEL.length) };
      });
    }
    for (const [key, queryValue] of Object.entries(trial.query ?? {})) if (String(queryValue).includes(SENTINEL)) variableQuery.add(key);
  }
  const names: string[] = [];
  let literal = 0;
  const source = parts
    .map((part) => {
      if (typeof part === 'string') {
        literal += part.length;
        return escape(part);
      }
      names.push(part.name);
      literal += part.before.length + part.after.length;
      return `${escape(part.before)}([^/]+)${escape(part.after)}`;
    })
    .join('/');
  const fixedQuery: [string, string][] = [];
  for (const [key, value] of Object.entries(plain.query ?? {})) {
    if (variableQuery.has(key) || value === undefined || value === null || Array.isArray(value)) continue;
    fixedQuery.push([key, String(value)]);
  }
  // Any base path may come before the tool's own path (`/api/v1`, a sandbox's `/loops/api/v1`).
  return { toolId: tool.id, method: plain.method, pattern: new RegExp(`^(?:/.*)?${source}$`), names, literal, fixedQuery };
}

/** Finds the tool whose request builder makes calls like this one; undefined when none does. */
export function matchRoute(routes: readonly Route[], method: string, path: string, query: URLSearchParams): RouteMatch | undefined {
  let best: { route: Route; groups: string[]; fixed: number } | undefined;
  for (const route of routes) {
    if (route.method !== method) continue;
    const found = route.pattern.exec(path);
    if (!found) continue;
    const fixed = route.fixedQuery.filter(([key, value]) => query.get(key) === value).length - route.fixedQuery.length;
    if (!best || fixed > best.fixed || (fixed === best.fixed && route.literal > best.route.literal)) {
      best = { route, groups: found.slice(1), fixed };
    }
  }
  if (!best) return undefined;
  const pathParams: Record<string, string> = Object.create(null) as Record<string, string>;
  best.route.names.forEach((name, i) => {
    const raw = best.groups[i] ?? '';
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A malformed escape is kept as it was sent.
    }
    pathParams[name] = value;
  });
  return { toolId: best.route.toolId, pathParams };
}
