import type { ChdbSession as Session } from './chdb.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyText, contentType, formAndQuery } from '../http/body.js';
import { createRouter } from '../http/router.js';
import type { SandboxRequest, SandboxResponse, ServiceApp } from '../http/types.js';
import { windowLimiter } from '../http/window-limit.js';
import { appendFromUrl, deleteRows, truncate, type DatasourcesContext } from './datasources-route.js';
import { postEvents, rateLimitHeaders, textError } from './events-route.js';
import { appendFromBody } from './append-body.js';
import { describeDatasource, describePipe } from './describe.js';
import { JobQueue } from './jobs.js';
import { parsePipe, type PipeDef } from './pipes.js';
import { parseDatasource, type DatasourceSchema } from './schema.js';
import { ReadOnlySessions } from './read-only-sessions.js';
import { jsonError, runQuery, type QueryContext } from './sql.js';
import { SqlGate } from './sql-gate.js';
import type { TemplateParams } from './template.js';
import { allows, presentedToken, type TokenDef } from './tokens.js';
import { Workspace } from './workspace.js';
import { DEFAULT_MAX_IMPORT_BYTES, importOrigins, type ImportPolicy } from './import-file.js';

export interface TinybirdOptions {
  /** Data Sources to declare, as `.datasource` file text by name. */
  datasources?: Record<string, string>;
  /** Pipes to publish, as `.pipe` file text by name. */
  pipes?: Record<string, string>;
  tokens: TokenDef[];
  /** Time a job spends in each of `waiting` and `working`. Default 200 ms. */
  jobStepMs?: number;
  /** Events API limit per second. Default 1000, as the service's default. */
  eventsPerSecond?: number;
  /** Query API and pipe limit per second. Default 20 (the Classic default). */
  queriesPerSecond?: number;
  /** Create/append from URL, per minute. Default 5. */
  importsPerMinute?: number;
  /** Active delete jobs at once. Default 1 (Free plan). */
  maxActiveDeletes?: number;
  /** Events API body limit in bytes. Default 10 MB (Free plan). */
  maxEventsBytes?: number;
  /**
   * Loopback origins an import from URL may fetch besides the sandbox's own ports (a test's
   * file server, `http://127.0.0.1:8000`). No other URL is fetched.
   */
  importFrom?: readonly string[];
  /** Bytes an import from URL may download, and bytes its gzip may inflate to. Default 100 MiB. */
  maxImportBytes?: number;
}

/** A Map: the extension comes from the URL, and `.constructor` must not find Object's. */
const PIPE_EXTENSIONS = new Map([
  ['json', 'JSON'],
  ['csv', 'CSVWithNames'],
  ['csvwithnames', 'CSVWithNames'],
  ['ndjson', 'JSONEachRow'],
  ['parquet', 'Parquet'],
  ['prometheus', 'Prometheus'],
]);

/**
 * Query parameters other than the reserved ones, as template values (repeated keys become
 * arrays). Null prototype: `{{String(toString)}}` must not find Object's method.
 */
function templateParams(params: URLSearchParams, reserved: readonly string[]): TemplateParams {
  const out = Object.create(null) as TemplateParams;
  for (const key of new Set(params.keys())) {
    if (reserved.includes(key)) continue;
    const values = params.getAll(key);
    out[key] = values.length > 1 ? values : values[0]!;
  }
  return out;
}

/** The event-data service (Tinybird-compatible) on one chdb session. */
export async function createTinybird(session: Session, options: TinybirdOptions, dataDir: string | undefined, ownOrigins: () => readonly string[] = () => []) {
  const importPolicy: ImportPolicy = { ownOrigins, importFrom: importOrigins(options.importFrom), maxBytes: options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES };
  const workspace = new Workspace(session);
  const schemaFile = dataDir ? join(dataDir, 'tinybird-datasources.json') : undefined;
  const saved: DatasourceSchema[] = schemaFile && existsSync(schemaFile) ? (JSON.parse(readFileSync(schemaFile, 'utf8')) as DatasourceSchema[]) : [];
  const declared = Object.entries(options.datasources ?? {}).map(([name, text]) => parseDatasource(name, text));
  await workspace.restore([...saved.filter((s) => !declared.some((d) => d.name === s.name)), ...declared]);
  const persist = () => {
    if (!schemaFile || !dataDir) return;
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(schemaFile, JSON.stringify([...workspace.datasources.values()], null, 2));
  };
  persist();

  const pipes = new Map<string, PipeDef>(Object.entries(options.pipes ?? {}).map(([name, text]) => [name, parsePipe(name, text)]));
  // Queries from outside run on read-only connections, after the SQL gate has read their AST.
  const readOnly = new ReadOnlySessions(session.path);
  const gate = await SqlGate.open(await readOnly.get());
  const queries: QueryContext = { workspace, pipes, gate, readOnly };
  const jobs = new JobQueue({ stepMs: options.jobStepMs ?? 200 });
  const eventsLimit = windowLimiter(options.eventsPerSecond ?? 1000, 1000);
  const queryLimit = windowLimiter(options.queriesPerSecond ?? 20, 1000);
  const importLimit = windowLimiter(options.importsPerMinute ?? 5, 60_000);
  const creating = new Set<string>();
  const tokenOf = (req: SandboxRequest) => {
    const presented = presentedToken(req.query, req.headers.authorization);
    return options.tokens.find((t) => t.token === presented);
  };

  /** Main-API guard: a known token, then the query rate limit. */
  const guarded =
    (handler: (req: SandboxRequest, token: TokenDef) => SandboxResponse | Promise<SandboxResponse>, limited = false) =>
    async (req: SandboxRequest): Promise<SandboxResponse> => {
      const token = tokenOf(req);
      if (!token) return jsonError(403, 'Invalid token');
      if (!limited) return handler(req, token);
      const decision = queryLimit.take('workspace');
      const headers = rateLimitHeaders(decision);
      if (!decision.allowed) {
        return jsonError(429, `You have reached the maximum number of requests per second (${decision.limit}) for Query API. Retry or contact us`, {
          ...headers,
          'retry-after': String(decision.resetSeconds),
        });
      }
      const reply = await handler(req, token);
      return { ...reply, headers: { ...headers, ...reply.headers } };
    };

  const canRead = (token: TokenDef, pipe?: string) =>
    allows(token, 'PIPES:READ', pipe) || (pipe === undefined && allows(token, 'DATASOURCES:READ'));

  const sqlInput = (req: SandboxRequest): { q?: string; params: URLSearchParams } => {
    if (req.method === 'GET') return { q: req.query.get('q') ?? undefined, params: req.query };
    const type = contentType(req);
    if (type === 'application/json') {
      const body = JSON.parse(bodyText(req) || '{}') as Record<string, unknown>;
      const params = new URLSearchParams(req.query);
      for (const [key, value] of Object.entries(body)) params.set(key, String(value));
      return { q: params.get('q') ?? undefined, params };
    }
    if (type === 'application/x-www-form-urlencoded') {
      const params = formAndQuery(req);
      return { q: params.get('q') ?? undefined, params };
    }
    const text = bodyText(req).trim();
    return { q: text || undefined, params: req.query };
  };

  const sql = guarded(async (req, token) => {
    if (!canRead(token)) return jsonError(403, 'token needs scope PIPES:READ');
    let input;
    try {
      input = sqlInput(req);
    } catch {
      return jsonError(400, 'The request body is not valid JSON');
    }
    if (!input.q) {
      return jsonError(400, req.method === 'GET' ? 'missing q parameter. example q=select%201' : 'The request body should contain a query');
    }
    const pipeline = input.params.get('pipeline') ?? undefined;
    if (pipeline && !canRead(token, pipeline)) return jsonError(403, `token needs scope PIPES:READ:${pipeline}`);
    return runQuery(queries, {
      q: input.q,
      pipeline,
      params: templateParams(input.params, ['q', 'pipeline', 'token']),
    });
  }, true);

  const pipe = guarded(async (req, token) => {
    const match = /^(.+?)(?:\.(\w+))?$/.exec(req.params.file!)!;
    const [, name, ext] = match;
    // No extension: the pipe's description (nodes, endpoint, parameters), not its data.
    if (ext === undefined) {
      if (!canRead(token, name)) return jsonError(403, `token needs scope PIPES:READ:${name}`);
      const def = pipes.get(name!);
      return def ? { status: 200, body: describePipe(def) } : jsonError(404, `Pipe "${name}" does not exist`);
    }
    const format = PIPE_EXTENSIONS.get(ext.toLowerCase());
    if (!format) return jsonError(400, `Format .${ext} is not supported: json, csv, ndjson, parquet or prometheus`);
    if (!canRead(token, name)) return jsonError(403, `token needs scope PIPES:READ:${name}`);
    if (!pipes.has(name!)) return jsonError(404, `The pipe '${name}' does not exist or has no published endpoint`);
    const q = req.query.get('q') ?? 'SELECT * FROM _';
    return runQuery(queries, {
      q: `${q.replace(/\s+FORMAT\s+\w+\s*;?\s*$/i, '')} FORMAT ${format}`,
      pipeline: name,
      params: templateParams(req.query, ['q', 'token']),
    });
  }, true);

  const dsContext = (req: SandboxRequest, token: TokenDef): DatasourcesContext => ({
    session,
    workspace,
    gate,
    jobs,
    token,
    // `job_url` names the URL the client called: the prefixed one or the service's own port.
    baseUrl: req.base,
    maxActiveDeletes: options.maxActiveDeletes ?? 1,
    importLimit: () => importLimit.take('workspace'),
    importPolicy,
  });

  const router = createRouter({
    notFound: (req) => (req.path.startsWith('/v0/events') ? textError(404, 'Not found') : jsonError(404, `Not found: ${req.path}`)),
    methodNotAllowed: (req) => jsonError(405, `Method ${req.method} is not allowed on ${req.path}`),
  });
  router.post('/v0/events', (req) =>
    postEvents(req, {
      workspace,
      token: tokenOf(req),
      limit: eventsLimit.take('workspace'),
      maxBytes: options.maxEventsBytes ?? 10 * 1024 * 1024,
      creating,
      persist,
    }),
  );
  const createToken = guarded((req, token) => {
    if (!allows(token, 'TOKENS')) return jsonError(403, 'token needs scope TOKENS');
    let body: { name?: unknown; scope?: unknown; scopes?: unknown };
    try {
      body = JSON.parse(bodyText(req) || '{}') as typeof body;
    } catch {
      return jsonError(400, 'The request body is not valid JSON');
    }
    if (typeof body.name !== 'string' || !body.name) return jsonError(400, 'name is required');
    const jwt = Array.isArray(body.scopes);
    // A JWT's scopes become the sandbox token's; fixed params and filters are not enforced.
    const scopes = jwt
      ? (body.scopes as { type: string; resource: string }[]).map((s) => `${s.type}:${s.resource}`)
      : ([] as unknown[]).concat(body.scope ?? []).map(String);
    if (scopes.length === 0) return jsonError(400, 'scope is required');
    const value = jwt ? `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ name: body.name, exp: Number(req.query.get('expiration_time')) })).toString('base64url')}.${crypto.randomUUID()}` : `p.sandbox-${crypto.randomUUID()}`;
    options.tokens.push({ name: body.name, token: value, scopes });
    return { status: 200, body: jwt ? { token: value } : { token: value, name: body.name, scopes: scopes.map((s) => ({ type: s.split(':').slice(0, 2).join(':'), resource: s.split(':')[2] ?? null })) } };
  });
  router.post('/v0/tokens', createToken);
  router.post('/v0/tokens/', createToken);
  router.get('/v0/sql', sql);
  router.post('/v0/sql', sql);
  router.get('/v0/pipes/:file', pipe);
  router.get(
    '/v0/pipes',
    guarded((_, token) => ({ status: 200, body: { pipes: [...pipes.values()].filter((p) => canRead(token, p.name)).map(describePipe) } })),
  );
  const canDescribe = (token: TokenDef, name: string) =>
    allows(token, 'DATASOURCES:READ', name) || allows(token, 'DATASOURCES:CREATE') || allows(token, 'DATASOURCES:APPEND', name);
  router.get(
    '/v0/datasources',
    guarded(async (_, token) => {
      const visible = [...workspace.datasources.values()].filter((d) => canDescribe(token, d.name));
      return { status: 200, body: { datasources: await Promise.all(visible.map((d) => describeDatasource(session, d))) } };
    }),
  );
  router.get(
    '/v0/datasources/:name',
    guarded(async (req, token) => {
      const name = req.params.name!;
      const schema = workspace.get(name);
      if (!schema) return jsonError(404, `Data Source "${name}" does not exist`);
      if (!canDescribe(token, name)) return jsonError(403, `token needs scope DATASOURCES:READ:${name}`);
      return { status: 200, body: await describeDatasource(session, schema) };
    }),
  );
  router.post(
    '/v0/datasources',
    guarded((req, token) =>
      contentType(req) === 'multipart/form-data' ? appendFromBody(req, { ...dsContext(req, token), persist }) : appendFromUrl(req, dsContext(req, token)),
    ),
  );
  router.post('/v0/datasources/:name/truncate', guarded((req, token) => truncate(req, dsContext(req, token))));
  router.post('/v0/datasources/:name/delete', guarded(async (req, token) => {
    const reply = await deleteRows(req, dsContext(req, token));
    if (reply.status === 201) persist();
    return reply;
  }));
  router.get(
    '/v0/jobs',
    guarded((req) => {
      const kind = req.query.get('kind');
      const status = req.query.get('status');
      const after = req.query.get('created_after');
      const before = req.query.get('created_before');
      // Job times are `YYYY-MM-DD HH:MM:SS.ffffff` UTC; the filters ISO 8601.
      const time = (text: string) => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) || text.length <= 10 ? text : `${text.replace(' ', 'T')}Z`);
      const listed = jobs
        .list()
        .filter((job) => (!kind || job.kind === kind) && (!status || job.status === status))
        .filter((job) => (!after || time(job.created_at) > time(after)) && (!before || time(job.created_at) < time(before)))
        .map(({ id, kind: k, status: s, created_at, updated_at, job_url, datasource }) => ({ id, kind: k, status: s, created_at, updated_at, job_url, datasource }));
      return { status: 200, body: { jobs: listed } };
    }),
  );
  router.get(
    '/v0/jobs/:id',
    guarded((req, token) => {
      if (!allows(token, 'DATASOURCES:CREATE')) return jsonError(403, "The token you have provided doesn't have access to this resource");
      const job = jobs.get(req.params.id!);
      return job ? { status: 200, body: job } : jsonError(404, `Job with id "${req.params.id}" not found`);
    }),
  );
  router.post(
    '/v0/jobs/:id/cancel',
    guarded((req, token) => {
      if (!allows(token, 'DATASOURCES:CREATE')) return jsonError(403, "The token you have provided doesn't have access to this resource");
      const job = jobs.get(req.params.id!);
      if (!job) return jsonError(404, `Job with id "${req.params.id}" not found`);
      const refused = jobs.cancel(job);
      return refused ? jsonError(400, refused) : { status: 200, body: job };
    }),
  );

  const app: ServiceApp = {
    handle: async (req) => {
      const reply = await router.handle(req);
      return { ...reply, headers: { 'x-request-id': crypto.randomUUID(), 'access-control-allow-origin': '*', ...reply.headers } };
    },
    faultReply: (status, req) => {
      const headers = status === 429 ? { 'retry-after': '1' } : undefined;
      const message = status === 429 ? 'Too many requests' : 'Service temporarily unavailable, no data ingested, please retry again';
      return req.path === '/v0/events' ? textError(status, message, headers) : jsonError(status, message, headers);
    },
  };
  return {
    app,
    workspace,
    pipes,
    jobs,
    close: async () => {
      jobs.close();
      await readOnly.close();
    },
  };
}
