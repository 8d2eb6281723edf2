import { codeForStatus, ToolFailure } from '../harness/errors.js';
import type { Connection } from '../harness/define/service.js';
import type { AnyTool, ExecuteOptions, HttpRequestSpec, Query, RequestBody, ToolContext } from '../harness/types.js';

/** A value no param holds: letters and digits only, so path encoding leaves it as it is. */
const SENTINEL = 'fbmockvalue7q';
const PLACEHOLDER_CREDENTIAL = 'fixture-credential';
const PLACEHOLDER_BASE = 'https://fixture.invalid';
/** The failures a composed tool is run against to see the other calls it makes (fallbacks). */
const PROBE_STATUSES = [401, 404, 409, 500] as const;
/** A composed tool sending more than this on one probe is stopped there. */
const PROBE_MAX_SENDS = 8;

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
  /** The media type of the body the tool sends (`application/json`, `multipart/form-data`), or '' for none. */
  mediaType: string;
}

export interface RouteMatch {
  toolId: string;
  /** Path values by the tool's param name (`{ name: 'events' }` for `/v0/datasources/events`). */
  pathParams: Record<string, string>;
}

interface BuiltCall {
  method: string;
  path: string;
  query?: Query;
  mediaType: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The media type the harness sends a body of this kind with. */
function mediaTypeOf(body: RequestBody | undefined): string {
  if (!body) return '';
  if ('json' in body) return 'application/json';
  if ('form' in body) return 'application/x-www-form-urlencoded';
  if ('ndjson' in body) return 'application/x-ndjson';
  return (body.contentType ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
}

function callOf(spec: HttpRequestSpec, base: string, toolId: string): BuiltCall {
  if (!spec.url.startsWith(base)) throw new Error(`${toolId}: its request URL ${spec.url} is not under its base URL`);
  return { method: spec.method, path: spec.url.slice(base.length) || '/', query: spec.query, mediaType: mediaTypeOf(spec.body) };
}

/**
 * The other calls a composed tool makes (a fallback endpoint, a poll): its own `run`, with
 * every call answered by one failure status, records what it sends. The tool's code, not a table.
 */
async function probe(tool: AnyTool, params: unknown, status: number, options: ExecuteOptions): Promise<HttpRequestSpec[]> {
  const sent: HttpRequestSpec[] = [];
  const refuse = (spec: HttpRequestSpec): never => {
    sent.push(spec);
    if (sent.length > PROBE_MAX_SENDS) throw new Error('probe: enough');
    throw new ToolFailure({ code: codeForStatus(status), message: 'probe', status, retryable: false });
  };
  const ctx: ToolContext<unknown> = {
    send: async (spec) => refuse(spec),
    call: async (p) => refuse(tool.request(p, options)),
    sleep: async () => {},
    note: () => {},
    reportRateLimit: () => {},
    options,
  };
  try {
    await tool.run!(params, ctx);
  } catch {
    // Every probe ends in a failure: what it sent is what matters.
  }
  return sent;
}

/** Every distinct call the tool makes for these params: its request, then what its `run` sends on failures. */
async function build(tool: AnyTool, connection: Connection, params: Record<string, unknown>, options: ExecuteOptions): Promise<BuiltCall[] | undefined> {
  const parsed = tool.params.safeParse(params);
  if (!parsed.success) return undefined;
  const base = connection.resolveBaseUrl(parsed.data as object, options);
  const specs = [tool.request(parsed.data, options)];
  if (tool.run) for (const status of PROBE_STATUSES) specs.push(...(await probe(tool, parsed.data, status, options)));
  const seen = new Set<string>();
  const calls: BuiltCall[] = [];
  for (const spec of specs) {
    const call = callOf(spec, base, tool.id);
    const key = `${call.method} ${call.path} ${call.mediaType}`;
    if (seen.has(key)) continue;
    seen.add(key);
    calls.push(call);
  }
  return calls;
}

type Part = string | { name: string; before: string; after: string };

function routeFrom(toolId: string, call: BuiltCall, parts: Part[], variableQuery: Set<string>): Route {
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
  for (const [key, value] of Object.entries(call.query ?? {})) {
    if (variableQuery.has(key) || value === undefined || value === null || Array.isArray(value)) continue;
    fixedQuery.push([key, String(value)]);
  }
  // Any base path may come before the tool's own path (`/api/v1`, a sandbox's `/loops/api/v1`).
  return { toolId, method: call.method, pattern: new RegExp(`^(?:/.*)?${source}$`), names, literal, fixedQuery, mediaType: call.mediaType };
}

/**
 * The routes of one tool, derived from its own request builder: the example call is built as
 * it is, then once per string param with that param set to a sentinel; a path segment that
 * changes with a param is that param's place. No route is written by hand.
 */
export async function routesOf(tool: AnyTool, connection: Connection, example: Record<string, unknown>): Promise<Route[]> {
  const placed = connection.placeBaseUrl(PLACEHOLDER_BASE);
  const full: Record<string, unknown> = { ...example, [connection.credential.param]: PLACEHOLDER_CREDENTIAL, ...placed.params };
  const options: ExecuteOptions = placed.endpoints ? { endpoints: placed.endpoints } : {};
  const plain = await build(tool, connection, full, options);
  if (!plain) {
    const issues = tool.params.safeParse(full).error?.issues.map((issue: { path: PropertyKey[]; message: string }) => `${issue.path.map(String).join('.')}: ${issue.message}`).join('; ');
    throw new Error(`the example params of ${tool.id} are not valid params of the tool: ${issues}`);
  }
  const parts: Part[][] = plain.map((call) => call.path.split('/'));
  const variableQuery = plain.map(() => new Set<string>());
  for (const [name, value] of Object.entries(example)) {
    if (typeof value !== 'string') continue;
    // A query value that is the param's own value varies with it, whether or not a sentinel passes its checks.
    plain.forEach((call, i) => {
      for (const [key, queryValue] of Object.entries(call.query ?? {})) if (queryValue === value) variableQuery[i]!.add(key);
    });
    const trial = await build(tool, connection, { ...full, [name]: SENTINEL }, options);
    // The same calls in the same order, or the param changes more than a value: skip it.
    if (!trial || trial.length !== plain.length) continue;
    trial.forEach((call, i) => {
      const segments = call.path.split('/');
      if (segments.length === parts[i]!.length) {
        segments.forEach((segment, j) => {
          const at = segment.indexOf(SENTINEL);
          if (at >= 0) parts[i]![j] = { name, before: segment.slice(0, at), after: segment.slice(at + SENTINEL.length) };
        });
      }
      for (const [key, queryValue] of Object.entries(call.query ?? {})) if (String(queryValue).includes(SENTINEL)) variableQuery[i]!.add(key);
    });
  }
  return plain.map((call, i) => routeFrom(tool.id, call, parts[i]!, variableQuery[i]!));
}

function isGreater(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** Finds the tool whose request builder makes calls like this one; undefined when none does. */
export function matchRoute(routes: readonly Route[], method: string, path: string, query: URLSearchParams, contentType = ''): RouteMatch | undefined {
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  let best: { route: Route; groups: string[]; score: number[] } | undefined;
  for (const route of routes) {
    if (route.method !== method) continue;
    const found = route.pattern.exec(path);
    if (!found) continue;
    // A body of the route's kind first, then the most specific path, then the most fixed query entries met.
    const score = [route.mediaType === mediaType ? 1 : 0, route.literal, route.fixedQuery.filter(([key, value]) => query.get(key) === value).length];
    if (!best || isGreater(score, best.score)) best = { route, groups: found.slice(1), score };
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
