import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { BoundedCache } from '../bounded-cache.js';
import { ownValue } from '../dictionary.js';
import { failure } from '../errors.js';
import type { AnyTool, ExecuteOptions, HttpRequestSpec, HttpResponse, ToolDeclaration, ToolDefinition, ToolError } from '../types.js';

/**
 * What is true of a service as a whole: where it answers, how a call proves who it is, and
 * how fast it may be called. Written once per service; every tool builds its calls through it.
 */
export interface ConnectionSpec {
  /** The service id: the prefix of its tool ids, its `options.endpoints` key and its block type. */
  service: string;
  baseUrl: {
    /** The real service's base URL; a service without one needs `param` or an `endpoints` entry. */
    default?: string;
    /** The tool param that takes the base URL, when the service's spec has one (`base_url`). */
    param?: string;
    /** A zod schema for that param, for the tools' params. */
    schema?: z.ZodType<string>;
    /** Environment variable the agents and the CLI read it from. */
    env?: string;
    /**
     * The service's other public base URLs (regions), besides `default`: a remote MCP server
     * takes a caller's base URL for these hosts, and others only where its operator allows them.
     */
    publicUrls?: readonly string[];
  };
  credential: {
    /** The tool param that holds the credential (`token`, `apiKey`). */
    param: string;
    /** Its zod schema, marked secret (`secretParam`). */
    schema: z.ZodType<string>;
    /** The header it travels in. */
    header: string;
    /** Put before the credential in the header, e.g. `Bearer`. */
    scheme?: string;
    /**
     * A query parameter the service also reads the credential from (Tinybird's `?token=`, read
     * before the header). Never sent by a tool; a custom call may not set it, in any spelling.
     */
    query?: string;
    /** Environment variable the agents and the CLI read it from. */
    env: string;
    /** A cheap GET (path and query after the base URL) that only a valid credential passes: an editor's "test credential". */
    check?: string;
    /**
     * When no GET passes without a param the credential does not hold: `check` is a call the
     * service refuses only after accepting the credential, and this is the field of that
     * refusal's JSON body (a 400's `details`) which tells it from a rejected credential.
     */
    checkAcceptedField?: string;
    /**
     * What a 2xx answer of `check` holds when it is the service's: `field` always there (so a web
     * page or another API that answers 200 fails the test), never equal to `refused` when given.
     */
    checkAnswer?: { field: string; refused?: string | number | boolean };
  };
  /** Pace calls per credential against the service's documented limit (its headers override it). */
  pacing?: { limit: number; windowMs?: number };
  /** A 2xx the service means as a refusal (e.g. `{ success: false }`): the error to report instead. */
  refusal?(response: HttpResponse): ToolError | undefined;
}

/** One call of a service, relative to its base URL; `connection.request` adds URL, credential and pacing. */
export type ServiceCall = Omit<HttpRequestSpec, 'url' | 'pacing' | 'refusal'> & { path: string };

export interface Connection extends ConnectionSpec {
  /** The base URL of one call: its param, else `options.endpoints[service]`, else the default. No trailing slash. */
  resolveBaseUrl(params: object, options: ExecuteOptions): string;
  /**
   * Where a base URL a host holds for this service goes in a call: the base-URL param when the
   * tools take one, else `options.endpoints[service]`. Every host places it by this one rule.
   */
  placeBaseUrl(url: string): { params?: Record<string, string>; endpoints?: Record<string, string> };
  /** The params a host's credential holds rather than a user's fields: the credential, and the base-URL param if any. */
  readonly credentialParams: readonly string[];
  /** The full request of one call: base URL, credential header, pacing, refusal check. */
  request(params: object, options: ExecuteOptions, call: ServiceCall): HttpRequestSpec;
  /**
   * Declares a tool of this service: its `service` is this one, and its `request` says only the
   * call (method, path below the base URL, query, body), which `request` above makes whole.
   */
  defineTool<PS extends z.ZodType, OS extends z.ZodType, WS extends z.ZodType = z.ZodType, const Id extends string = string>(
    tool: ToolDeclaration<PS, OS, WS, Id> & { request(params: z.output<PS>, options: ExecuteOptions): ServiceCall },
  ): ToolDefinition<PS, OS, WS, Id>;
}

const TRAILING_SLASHES = /\/+$/;

/** The value of `name` in validated params (tools pass their own typed params object). */
function paramValue(params: object, name: string): string | undefined {
  const value = ownValue(params, name);
  return typeof value === 'string' ? value : undefined;
}

/** Declares how a service is reached; tools import it and build their calls with `request`. */
export function defineConnection<const S extends ConnectionSpec>(spec: S): Connection & S {
  const { baseUrl, credential, pacing, refusal } = spec;
  const prefix = credential.scheme ? `${credential.scheme} ` : '';
  const windowMs = pacing?.windowMs ?? 1000;
  // One sha256 per credential, not per call (docs/benchmarks.md). The Map is keyed
  // by the credential itself: process memory only, never logged, at most PACING_KEYS of them.
  const pacingKeys = new BoundedCache<string, string>(PACING_KEYS);
  const keyOf = (secret: string) => `${spec.service}:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;

  const resolveBaseUrl = (p: object, options: ExecuteOptions): string => {
    const base =
      (baseUrl.param ? paramValue(p, baseUrl.param) : undefined) ??
      // The caller's own entry only: `endpoints` may be parsed JSON or CLI pairs.
      (options.endpoints ? paramValue(options.endpoints, spec.service) : undefined) ??
      baseUrl.default;
    if (base === undefined) {
      const message = `no base URL for ${spec.service}: give ${baseUrl.param ?? `options.endpoints.${spec.service}`}`;
      throw failure('invalid_params', `invalid params: ${message}`, { issues: [{ path: baseUrl.param ?? '', message }] });
    }
    return base.replace(TRAILING_SLASHES, '');
  };

  const connection: Connection = {
    ...spec,
    resolveBaseUrl,
    placeBaseUrl: (url) => (baseUrl.param ? { params: { [baseUrl.param]: url } } : { endpoints: { [spec.service]: url } }),
    credentialParams: baseUrl.param ? [credential.param, baseUrl.param] : [credential.param],
    defineTool(tool) {
      const call = tool.request;
      // Params are a validated object by the time a request is built (every params schema is one).
      return { ...tool, service: spec.service, request: (p, options) => connection.request(p as object, options, call(p, options)) };
    },
    request(p, options, call) {
      const secret = paramValue(p, credential.param) ?? '';
      const auth = prefix + secret;
      // Field by field, not a spread: one object per call, with one shape for every service.
      return {
        method: call.method,
        url: resolveBaseUrl(p, options) + call.path,
        query: call.query,
        // The credential first: a call's own headers come after it.
        headers: call.headers ? { [credential.header]: auth, ...call.headers } : { [credential.header]: auth },
        body: call.body,
        gzip: call.gzip,
        safeToRetry: call.safeToRetry,
        nothingDoneStatuses: call.nothingDoneStatuses,
        idempotencyKey: call.idempotencyKey,
        retryQuery: call.retryQuery,
        retryNothingDoneStatuses: call.retryNothingDoneStatuses,
        // Calls with one credential share one account's rate limit; the key is a hash, never the secret.
        pacing: pacing ? { key: pacingKeys.get(secret, keyOf), limit: pacing.limit, windowMs } : undefined,
        refusal,
      };
    },
  };
  return connection as Connection & S;
}

/** Credentials whose pacing key each connection remembers (the least recently used go first). */
export const PACING_KEYS = 1000;

/** What a service's block keeps for itself: operations whose id or label differ from the tool's. */
export interface BlockOptions {
  /** Per tool id: the operation id (default: the tool id without `<service>_`) and label (default: the tool's name). */
  operations?: Record<string, { id?: string; label?: string }>;
  /** What kind of integration it is, for a host's catalog (Sim's integration types and tags). */
  catalog?: BlockCatalog;
}

/** A block's place in a host's catalog: its kind (`analytics`, `email`, …) and topic tags. */
export interface BlockCatalog {
  kind: string;
  tags: string[];
}

export interface ServiceDefinition<T extends readonly AnyTool[] = readonly AnyTool[]> {
  id: string;
  name: string;
  /** One sentence for the block and the docs. */
  description: string;
  docsUrl?: string;
  /** A small square SVG drawn in `currentColor` (the editor shows it on `color`). */
  icon: string;
  color: string;
  connection: Connection;
  /** Every tool of the service, in the order its block lists them. */
  tools: T;
  block?: BlockOptions;
}

export interface Service<T extends readonly AnyTool[] = readonly AnyTool[]> extends ServiceDefinition<T> {
  /** Environment variables of the service's settings, by setting name (`token`, `apiKey`, `base_url`). */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Declares a service: its identity, its connection and its tools. Blocks, the registry, the
 * agents' settings, the preview's connections and the docs are derived from it.
 */
export function defineService<const T extends readonly AnyTool[]>(definition: ServiceDefinition<T>): Service<T> {
  const { id, connection, tools } = definition;
  if (connection.service !== id) throw new Error(`service ${id}: its connection is for ${connection.service}`);
  for (const tool of tools) {
    if (tool.service !== id) throw new Error(`service ${id}: tool ${tool.id} belongs to ${tool.service}`);
  }
  const env: Record<string, string> = { [connection.credential.param]: connection.credential.env };
  if (connection.baseUrl.env) env.base_url = connection.baseUrl.env;
  return { ...definition, env };
}
