import type { z } from 'zod';


/** Codes of every failure a tool can report; README.md's error table says when each is used. */
export type ToolErrorCode =
  | 'unknown_tool'
  | 'invalid_params'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'upstream_error'
  | 'timeout'
  | 'network'
  | 'invalid_response'
  | 'aborted'
  /** A fault of the package or its environment (a dependency lacking an API), never of the input. */
  | 'internal';

export interface ToolIssue {
  path: string;
  message: string;
  /** The rows of the input (1-based, both ends included; no `last`: to its end) the issue is about, when it is about some. */
  rows?: { first: number; last?: number };
}

export interface ToolError {
  code: ToolErrorCode;
  message: string;
  status?: number;
  retryable: boolean;
  retryAfterMs?: number;
  issues?: ToolIssue[];
}

export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** ISO 8601 time at which the window resets. */
  resetAt?: string;
}

export interface ResultMeta {
  status?: number;
  attempts: number;
  durationMs: number;
  rateLimit?: RateLimitInfo;
  /** Free-form notes a tool adds (for example that a 409 on a retry meant "already done"). */
  notes?: string[];
}

export type ToolResult<O = unknown> =
  | { success: true; output: O; meta: ResultMeta }
  | { success: false; error: ToolError; meta: ResultMeta };

/** MCP-style hints: what calling the tool does to the world. */
export interface ToolAnnotations {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

/** How the request body is encoded. */
export type RequestBody =
  | { json: unknown }
  | { form: Query }
  /** One JSON value per line; a string or bytes are sent as they are. */
  | { ndjson: string | Uint8Array | readonly unknown[] }
  | { text: string; contentType?: string };

/** What a tool's request mapping returns: one HTTP call, described as data. */
export interface HttpRequestSpec {
  method: HttpMethod;
  /** Absolute URL without query string. */
  url: string;
  query?: Query;
  headers?: Record<string, string | undefined>;
  body?: RequestBody;
  /** Gzip the encoded body and send `Content-Encoding: gzip`. */
  gzip?: boolean;
  /**
   * This call is safe to repeat after a 5xx or a network fault even though the tool
   * is not read-only or idempotent (e.g. `wait=true` on ingest, or a dry run).
   */
  safeToRetry?: boolean;
  /** Statuses after which the service guarantees nothing happened, so a retry is always safe. */
  nothingDoneStatuses?: readonly number[];
  /** Idempotency key sent with the call; its presence makes retries safe. */
  idempotencyKey?: string;
  /**
   * Query for the attempts after the first (ingest retries go with `wait=true`). It makes
   * them no safer to repeat after a network fault; `retryNothingDoneStatuses` names the
   * statuses that mean nothing happened on those attempts (with `wait=true`, a 500 too).
   */
  retryQuery?: Query;
  /** `nothingDoneStatuses` for the attempts sent with `retryQuery`. */
  retryNothingDoneStatuses?: readonly number[];
  /** Pace this call against the service's rate limit, per key (see `Pacer`). */
  pacing?: PacingSpec;
  /** A 2xx the service means as a refusal (Loops' `success: false`): the error to report instead. */
  refusal?(response: HttpResponse): ToolError | undefined;
}

/** Which rate limit a call counts against, and what the service documents for it. */
export interface PacingSpec {
  /** One key per rate-limited account (e.g. a hash of the API key); never the secret itself. */
  key: string;
  /** Documented requests per window, used until the service's own headers say otherwise. */
  limit?: number;
  /** Length of the service's window in ms (default 1000). */
  windowMs?: number;
}

/** One paced request's turn: `done` with its response (or none after a fault) frees it. */
export interface PacerTurn {
  done(response?: { status: number; headers: Record<string, string> }): void;
}

/** What the harness asks of a pacer; `Pacer` is the one the package ships. */
export interface PacerLike {
  acquire(spec: PacingSpec, signal?: AbortSignal, maxWaitMs?: number): Promise<PacerTurn>;
}

/** A response, with its body already read by content type (and, for a tool with `wire`, checked by it). */
export interface HttpResponse<B = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, a string for text, a Uint8Array for binary, undefined when empty; the `wire` schema's output when the tool has one. */
  body: B;
  bodyKind: 'json' | 'text' | 'binary' | 'empty';
}

export type HarnessEvent =
  | { type: 'request'; toolId: string; method: string; url: string; attempt: number }
  | { type: 'response'; toolId: string; status: number; attempt: number; durationMs: number }
  | { type: 'retry'; toolId: string; attempt: number; delayMs: number; reason: string };

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts?: number;
  /** First backoff step in ms. Default 250. */
  baseDelayMs?: number;
  /** Cap on one backoff step in ms. Default 8000. */
  maxDelayMs?: number;
  /**
   * The longest the call waits on the service: a Retry-After or rate-limit reset longer than this,
   * or a pacer hold that would end later, ends the call with `rate_limited` and `retryAfterMs`. Default 60000.
   */
  maxRetryAfterMs?: number;
}

/**
 * What the harness needs of a dispatcher: undici's `dispatch`, with the handler API undici 7 and
 * 8 share. Typed by that one method, not as undici 7's `Dispatcher` class, so an app's own undici
 * (8's MockAgent, an Agent with interceptors) type-checks as well as the one we bring: the two
 * majors' handler types differ in methods the harness does not use (`onBodySent`), so the
 * parameters are left open (`never` takes any major's) and the harness calls it with undici 7's.
 */
export interface DispatcherLike {
  dispatch(options: never, handler: never): boolean;
}

export interface ExecuteOptions {
  /** Base-URL overrides for services whose spec has no `base_url` param, e.g. `{ loops: 'http://127.0.0.1:4100/loops/api/v1' }`. */
  endpoints?: Record<string, string>;
  /** undici dispatcher (7 or 8) for every call (a MockAgent in tests); defaults to one shared keep-alive Agent. */
  dispatcher?: DispatcherLike;
  /**
   * Sends each HTTP attempt through the host instead of undici (n8n's `this.helpers.httpRequest`,
   * so its proxy, SSRF rules and tracing apply); `dispatcher` is then unused. Retries, pacing,
   * time limits, the size cap and redaction stay the harness's.
   */
  transport?: Transport;
  /** Aborts the call, its retries and its waits: the result is `aborted`. */
  signal?: AbortSignal;
  /** Time limit of each HTTP attempt in ms (default 30000): the result is `timeout`. */
  timeoutMs?: number;
  /** Largest response body read, in bytes (default 100 MiB); a larger one is `invalid_response`. */
  maxResponseBytes?: number;
  /** `false` sends each call once. */
  retry?: false | RetryOptions;
  /** Idempotency key for tools that send one; generated per call when absent. */
  idempotencyKey?: string;
  /** Paces calls that ask for it against their service's rate limit: the shared pacer by default, `false` for none. */
  pacer?: PacerLike | false;
  /** Receives one redacted event per request, response and retry. */
  logger?: (event: HarnessEvent) => void;
  /**
   * More values to mask in the result, its error and log events, besides the tool's own secret
   * params: the other credentials a caller holds (the agents pass every configured one), so an
   * answer echoing another service's key does not hand it on. A binary answer holding one is refused.
   */
  secrets?: readonly string[];
  /**
   * A binary answer (Parquet, `application/octet-stream`) while a secret is masked: `searched`
   * (the default) hands it on as base64 unless its bytes hold a secret as the mask spells it;
   * `refused` refuses every one, since compressed bytes (Parquet's zstd pages) can hold a secret
   * no byte search finds. The agents set `refused`: a model never gets bytes that cannot be masked.
   */
  binaryAnswers?: 'searched' | 'refused';
}

/** What a composed tool (`run`) gets: the harness's send, and its own single call. */
export interface ToolContext<P, R = unknown> {
  /** Sends one request through the full pipeline; a non-2xx status throws a `ToolFailure`. */
  send(request: HttpRequestSpec): Promise<HttpResponse>;
  /** The tool's own request and response mapping, as one call. */
  call(params: P): Promise<R>;
  /** Waits, abortably. */
  sleep(ms: number): Promise<void>;
  /** Adds a note to `meta.notes`. */
  note(text: string): void;
  /** A rate-limit state the service reported in a body; `X-RateLimit-*` headers, when present, win. */
  reportRateLimit(info: RateLimitInfo): void;
  options: ExecuteOptions;
  signal?: AbortSignal;
}

/**
 * How calls that send rows join into one: a host with many items (n8n) sends them as one call
 * and maps a failure's `issues[].rows` back to the items that gave those rows.
 */
export interface BatchSpec {
  /** The params that hold a call's rows; calls whose other params agree are joined. */
  params: readonly string[];
  /** One call's rows, each the JSON text of one row; throws a `ToolFailure` (`invalid_params`) for rows it refuses. */
  rows(params: Record<string, unknown>): string[];
  /** The params of the one call that sends these rows, from the params the joined calls share. */
  join(params: Record<string, unknown>, rows: readonly string[]): Record<string, unknown>;
}

/** How a list tool pages: the param that takes the cursor, and where a page keeps it and its items. */
export interface PaginationSpec<O = unknown> {
  cursorParam: string;
  nextCursor(output: O): string | null | undefined;
  items(output: O): readonly unknown[];
}

/** A tool as its service's `connection.defineTool` takes it: everything but `service` and `request`. */
export interface ToolDeclaration<
  PS extends z.ZodType = z.ZodType,
  OS extends z.ZodType = z.ZodType,
  WS extends z.ZodType = z.ZodType,
  Id extends string = string,
> {
  /** The tool id; `defineTool` keeps it as a literal type, so the registry's type map can key by it. */
  id: Id;
  name: string;
  description: string;
  /** Token scopes the call needs, as the service spells them. */
  scopes: readonly string[];
  annotations: ToolAnnotations;
  params: PS;
  output: OS;
  /**
   * The schema the harness checks outputs with at run time, when `output` would walk and
   * copy every row of a large answer (zod copies records and arrays). It must accept
   * exactly what `output` accepts, returning the value itself; `output` stays the tool's
   * schema for types, JSON Schema and docs.
   */
  outputCheck?: z.ZodType;
  /** What the tool works on (`Contact`, `Data Source`): editors that group operations, as n8n does, group them by it. */
  resource?: string;
  /**
   * What the service sends on success (a 2xx body), as a zod schema. The harness checks the
   * body with it before `response` maps it, so the mapping reads typed values, and an
   * unexpected answer is `invalid_response` naming the service's own field.
   */
  wire?: WS;
  /** Builds the output; it may reuse the body's objects, but never writes into them. */
  response(response: HttpResponse<z.output<WS>>, params: z.output<PS>): z.input<OS>;
  /**
   * For agents: the output field that holds query rows (an array of row objects, or text for
   * CSV-like formats); agents hand back at most `maxRows` of them and say how many there were.
   */
  rowsField?: 'data';
  /**
   * On a list tool: the param of its service's other tools whose values it lists (a Data Source
   * name, a template id), each record's `value` field, shown by its `label` field. An editor
   * offers them as a choice (n8n's resource locator, searched through this tool).
   */
  lists?: { param: string; value: string; label?: string };
  /**
   * A param whose value a user can copy from a page of the service's own app: that page's URL
   * starts with a match of `pattern` (a regular expression, unanchored, as n8n's own nodes write
   * theirs), and its one capture group is the value (Sim's
   * editor, `…/workspace/<ws>/w/<workflowId>`). An editor offers it as "By URL" (n8n's resource locator).
   */
  foundInUrl?: { param: string; pattern: string; example: string };
  /** Set on a service's custom API call (`customApiCall`): a host with its own (n8n's "Custom API Call") offers that one instead. */
  customCall?: true;
  /** Present on tools whose calls a host with many items may join into one call (Tinybird's events). */
  batch?: BatchSpec;
  /** Present on list tools: how `paginate` walks their pages. */
  pagination?: PaginationSpec<z.output<OS>>;
  /** Present on tools that compose several calls (polling, cursors); replaces the single call. */
  run?(params: z.output<PS>, ctx: ToolContext<z.output<PS>, z.input<OS>>): Promise<z.input<OS>>;
}

export interface ToolDefinition<
  PS extends z.ZodType = z.ZodType,
  OS extends z.ZodType = z.ZodType,
  WS extends z.ZodType = z.ZodType,
  Id extends string = string,
> extends ToolDeclaration<PS, OS, WS, Id> {
  /** The service id (`tinybird`, `loops`, …): its connection's `service`, its block type and its `options.endpoints` key. */
  service: string;
  /** The whole HTTP call (URL, credential header, pacing); `connection.defineTool` builds it from the call's path. */
  request(params: z.output<PS>, options: ExecuteOptions): HttpRequestSpec;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any, any, string>;

/** One HTTP attempt as the harness hands it to a host's transport. */
export interface TransportRequest {
  method: string;
  url: string;
  /** Lower-case names; sent as they are (the transport adds no auth of its own). */
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Aborted on the attempt's time limit, the caller's abort, or a body over the cap: stop sending and reading. */
  signal: AbortSignal;
}

/**
 * The answer, whatever its status (a transport never throws for a 4xx or 5xx), redirects not
 * followed. The body whole, or as chunks the harness reads up to its cap and then stops.
 */
export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array | AsyncIterable<Uint8Array>;
}

/** Sends one attempt; rejects only when no answer came (a refused connection, a cut, an abort). */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;
