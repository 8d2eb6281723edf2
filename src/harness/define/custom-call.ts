import { z } from 'zod';
import { failure } from '../errors.js';
import { encodeQuery } from '../send/request.js';
import { shownKey } from '../shown-key.js';
import { changesUnderNfkc, NFKC_REASON } from './path-segment.js';
import type { Connection } from './service.js';
import type { ToolDefinition } from '../types.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The only headers a custom call may set: what a call to these services needs (content
 * negotiation, the JSON type of the body it sends, conditional writes, a trace id). Anything
 * else is refused: the credential and what the harness owns, and every way to ask for part of
 * an answer or another method (`Range`, `If-Range`, `Accept-Encoding`, `X-HTTP-Method-Override`),
 * since a mask that matches whole secrets cannot match a slice of one.
 */
const ALLOWED_HEADER_NAMES = ['Accept', 'Accept-Language', 'Content-Type', 'Cache-Control', 'If-Match', 'If-None-Match', 'If-Modified-Since', 'If-Unmodified-Since', 'X-Request-Id', 'traceparent', 'tracestate'];
const ALLOWED_HEADERS = new Set(ALLOWED_HEADER_NAMES.map((name) => name.toLowerCase()));

/** A JSON media type (`application/json`, `application/merge-patch+json`, with parameters): the body is always JSON. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;.*)?$/i;

/** Why a header may not be set, or undefined when it may. */
export function refusedHeaderReason(name: string, value: string): string | undefined {
  const lower = name.toLowerCase();
  if (!ALLOWED_HEADERS.has(lower)) return `${shownKey(name)} cannot be set; a custom call may set only ${ALLOWED_HEADER_NAMES.join(', ')}`;
  if (lower === 'content-type' && !JSON_MEDIA_TYPE.test(value)) return `${shownKey(name)} must be a JSON media type: the body is sent as JSON`;
  return undefined;
}

/** An answer that is a part of a resource (`206`): a model could read a secret in slices no mask matches. */
export const PARTIAL_CONTENT = 'the service answered 206 Partial Content; a part of an answer is refused, since a secret read in slices would pass the mask';

/** True when `text` holds a C0 control character or DEL. */
const hasControl = (text: string) => [...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/**
 * Percent-decoded, repeatedly (a `%252e` is `%2e` after one pass): undefined when malformed, or
 * when it still decodes after four passes (no server decodes that often; it is refused, not guessed).
 */
function decodeFully(segment: string): string | undefined {
  let current = segment;
  for (let pass = 0; pass <= 4; pass++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

/**
 * Why `path` cannot be a path under a base URL, or undefined when it can: it must start with
 * one `/`, hold no query, fragment, backslash, whitespace or control character, and no segment
 * may be, or decode to, `.` or `..`, or hold a `/` or `\` once decoded (a server or proxy that
 * decodes would read it as a move), or change under Unicode NFKC (`．．`, `‥` and `／` are
 * `..` and `/` to a server that normalizes).
 */
export function unsafePathReason(path: string): string | undefined {
  if (!path.startsWith('/')) return 'must start with / (it is relative to the service\'s base URL)';
  if (path.startsWith('//')) return 'cannot start with // (that names another host)';
  if (/[?#]/.test(path)) return 'cannot hold ? or #: put query parameters in query';
  if (/[\\\s]/.test(path) || hasControl(path)) return 'cannot hold a backslash, whitespace or control characters';
  if (/\p{Cs}/u.test(path)) return 'cannot hold a lone UTF-16 surrogate';
  for (const segment of path.slice(1).split('/')) {
    const decoded = decodeFully(segment);
    if (decoded === undefined) return `has a malformed percent-encoding in ${JSON.stringify(segment)}`;
    // `..;x` is `..` to servers that drop path parameters (Tomcat, Jetty).
    if (decoded === '.' || decoded === '..' || /^\.\.?;/.test(decoded)) return 'cannot hold a . or .. segment (encoded or not)';
    if (/[/\\]/.test(decoded)) return `cannot hold an encoded / or \\ (${JSON.stringify(segment)})`;
    if (hasControl(decoded)) return 'cannot hold encoded control characters';
    if (changesUnderNfkc(decoded)) return `cannot hold ${JSON.stringify(segment)}: ${NFKC_REASON}`;
  }
  return undefined;
}

/**
 * `path` with what `new URL` would percent-encode (quotes, braces, `<>^|`, non-ASCII…) encoded
 * ahead, so that comparing with the parsed URL below sees only real moves, not this encoding.
 */
const encodePathChars = (path: string) => path.replace(/[^\w\-.~!$&'()*+,;=:@/%]/gu, (char) => encodeURIComponent(char));

/**
 * The URL of `path` under `base`, or a thrown `invalid_params`: resolved with `new URL`, it must
 * keep the base's origin and stay under the base's path, unchanged by any normalization.
 */
export function urlUnderBase(base: string, path: string): string {
  const refuse = (message: string) => failure('invalid_params', `invalid params: path ${message}`, { issues: [{ path: 'path', message }] });
  const reason = unsafePathReason(path);
  if (reason) throw refuse(reason);
  const root = new URL(base);
  const basePath = root.pathname.replace(/\/+$/, '');
  const encoded = encodePathChars(path);
  const url = new URL(`${root.origin}${basePath}${encoded}`);
  // Defence in depth: unsafePathReason above already refuses every path these two catch, so no
  // input reaches them and their mutants are equivalent. They stay for a future gap in it.
  if (url.origin !== root.origin) throw refuse(`leaves the service's origin ${root.origin}`);
  if (url.pathname !== `${basePath}${encoded}` || !url.pathname.startsWith(`${basePath}/`)) throw refuse(`leaves the service's base path ${basePath || '/'}`);
  return `${root.origin}${url.pathname}`;
}

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** A name as loosely as any server might read it: percent-decoded (however often), NFKC, case and punctuation dropped. */
function looseName(name: string): string {
  return (decodeFully(name) ?? name).normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The query keys that name the service's credential (its param, its header, the query
 * parameter it reads it from), as the service reads each key: the query string the harness
 * sends, parsed back with `URLSearchParams`, then compared loosely. A model setting one would
 * swap the configured credential for its own (Tinybird reads `?token=` before the header).
 */
function credentialKeys(connection: Connection, query: Record<string, unknown>): string[] {
  const { param, header, query: queryName } = connection.credential;
  const names = new Set([param, header, queryName].filter((name) => name !== undefined).map(looseName));
  return Object.keys(query).filter((key) => {
    const read = [...new URLSearchParams(encodeQuery({ [key]: '' })).keys()];
    return read.some((name) => names.has(looseName(name)));
  });
}

export interface CustomCallSpec<Id extends string = string, CP extends z.ZodRawShape = z.ZodRawShape> {
  /** `<service>_api_call`; kept literal so the registry's type map knows the tool by its id. */
  id: Id;
  /** The connection's own params (base URL, credential) as the service's tools declare them, so the tool's params stay typed. */
  connectionParams: CP;
  /** What the base URL is and an example path, for the description. */
  about: string;
  scopes?: readonly string[];
}

/**
 * A tool that sends one request the service's other tools do not cover: method, path under
 * the service's base URL, query and JSON body, with the configured credential, through the
 * harness (retries for GET only, pacing, redaction). It never leaves the base URL's origin
 * or path.
 */
export function customApiCall<const Id extends string, CP extends z.ZodRawShape>(connection: Connection, spec: CustomCallSpec<Id, CP>) {
  const callParams = z.object({
    method: z.enum(METHODS).default('GET').describe('HTTP method'),
    path: z
      .string()
      .min(1)
      .superRefine((path, ctx) => {
        const reason = unsafePathReason(path);
        if (reason) ctx.addIssue({ code: 'custom', message: `path ${reason}` });
      })
      .describe('Path under the service\'s base URL, starting with /'),
    query: z
      .record(z.string(), z.union([scalar, z.array(scalar)]))
      .optional()
      .superRefine((query, ctx) => {
        for (const key of credentialKeys(connection, query ?? {})) {
          ctx.addIssue({ code: 'custom', path: [key], message: 'names the credential: the configured one is sent, a custom call cannot set another' });
        }
      })
      .describe('Query-string parameters (arrays as repeated keys); never the credential'),
    body: z.unknown().optional().describe('JSON body (POST, PUT, PATCH, DELETE)'),
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9-]+$/, 'a header name has letters, digits and -'), z.string().regex(/^[^\r\n]*$/, 'a header value is one line'))
      .optional()
      .superRefine((headers, ctx) => {
        for (const [name, value] of Object.entries(headers ?? {})) {
          const reason = refusedHeaderReason(name, value);
          if (reason) ctx.addIssue({ code: 'custom', message: reason, path: [name] });
        }
      })
      .describe(`Extra request headers, only these: ${ALLOWED_HEADER_NAMES.join(', ')} (a JSON type); never the credential, Range or Accept-Encoding`),
  });
  const params = z.object({ ...spec.connectionParams, ...callParams.shape });
  type P = z.output<typeof params>;
  // The generic spread hides the call's own fields from the type checker; they were validated by `params`.
  const callOf = (p: P) => p as unknown as z.output<typeof callParams>;
  const tool: ToolDefinition<typeof params, z.ZodType<{ status: number; body: unknown }>, z.ZodType, Id> = {
    id: spec.id,
    name: 'Custom API call',
    resource: 'API',
    customCall: true,
    description: `Send one request to an endpoint no other ${connection.service} tool covers, with the configured credential: ${spec.about} The path must stay under the base URL (no other host, no .. segments). GET is retried after a 5xx or a network fault; other methods are sent once.`,
    scopes: spec.scopes ?? [],
    annotations: { readOnly: false, destructive: true, idempotent: false },
    service: connection.service,
    params,
    output: z.object({
      status: z.number().describe('HTTP status of the 2xx answer'),
      body: z.unknown().describe('The answer: JSON, text, or null when empty'),
    }),
    request: (p: P, options) => {
      const call = callOf(p);
      const base = connection.resolveBaseUrl(p, options);
      const url = urlUnderBase(base, call.path);
      const request = connection.request(p, options, {
        method: call.method,
        path: url.slice(base.length),
        query: call.query,
        headers: call.headers,
        body: call.body === undefined || call.method === 'GET' ? undefined : { json: call.body },
        safeToRetry: call.method === 'GET',
      });
      // Defence in depth, as in urlUnderBase: the request's URL is built from `url` itself.
      if (request.url !== url) throw failure('invalid_params', 'invalid params: path leaves the service\'s base URL', { issues: [{ path: 'path', message: 'leaves the base URL' }] });
      return request;
    },
    response: (res) => {
      if (res.status === 206) throw failure('invalid_response', PARTIAL_CONTENT, { status: 206 });
      return { status: res.status, body: res.body instanceof Uint8Array ? Buffer.from(res.body).toString('base64') : (res.body ?? null) };
    },
  };
  return tool;
}
