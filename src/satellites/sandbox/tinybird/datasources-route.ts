import { formAndQuery } from '../http/body.js';
import type { SandboxRequest, SandboxResponse } from '../http/types.js';
import type { WindowDecision } from '../http/window-limit.js';
import { clickhouseMessage, type ChdbSession as Session } from './chdb.js';
import { fetchEvents, refuseUrl, type ImportFormat, type ImportPolicy } from './import-file.js';
import type { JobQueue } from './jobs.js';
import { jsonError } from './sql.js';
import type { SqlGate } from './sql-gate.js';
import { allows, type TokenDef } from './tokens.js';
import { countSql, QUARANTINE_SUFFIX, type Workspace } from './workspace.js';

/** Engines the delete endpoint works on: the MergeTree family. */
const DELETABLE = /MergeTree$/;

export interface DatasourcesContext {
  session: Session;
  workspace: Workspace;
  /** Checks `delete_condition` as the Query API's SQL is checked. */
  gate: SqlGate;
  jobs: JobQueue;
  token: TokenDef;
  /** Base URL of the Tinybird emulator as the request reached it, for `job_url`. */
  baseUrl: string;
  /** Active delete jobs allowed at once (1 on the Free plan). */
  maxActiveDeletes: number;
  /** The shared create/append-from-URL limit (5 per minute per workspace). */
  importLimit: () => WindowDecision;
  /** Where an import may fetch from, and how many bytes it may read and inflate. */
  importPolicy: ImportPolicy;
}

const datasourceRef = (name: string) => ({ id: `t_${Buffer.from(name).toString('hex').slice(0, 32)}`, name });

function needsCreate(token: TokenDef): SandboxResponse | undefined {
  return allows(token, 'DATASOURCES:CREATE') ? undefined : jsonError(403, 'token needs scope DATASOURCES:CREATE');
}

/** `POST /v0/datasources?mode=append`: an import job from a URL on the sandbox's own ports (or `tinybird.importFrom`). */
export function appendFromUrl(req: SandboxRequest, ctx: DatasourcesContext): SandboxResponse {
  const form = formAndQuery(req);
  const mode = form.get('mode') ?? 'create';
  const name = form.get('name');
  if (mode !== 'append') return jsonError(400, `mode=${mode} is not emulated: declare Data Sources in the sandbox schema or send events`);
  if (!name) return jsonError(400, 'Data Source name must be set with mode=append');
  if (!allows(ctx.token, 'DATASOURCES:CREATE') && !allows(ctx.token, 'DATASOURCES:APPEND', name)) {
    return jsonError(403, `Token does not have DATASOURCES:APPEND scope for Data Source "${name}"`);
  }
  const schema = ctx.workspace.get(name);
  if (!schema) return jsonError(404, `Data Source "${name}" does not exist`);
  const url = form.get('url');
  if (!url) return jsonError(400, 'The url parameter is mandatory');
  const refused = refuseUrl(url, ctx.importPolicy);
  if (refused) return jsonError(400, refused);
  const format = (form.get('format') ?? 'csv').toLowerCase();
  if (format !== 'csv' && format !== 'ndjson' && format !== 'parquet') return jsonError(400, `Format '${format}' is not supported: csv, ndjson or parquet`);
  const limit = ctx.importLimit();
  if (!limit.allowed) {
    return jsonError(429, 'Too many requests: create, append and replace from a file or URL share 5 requests per minute', {
      'retry-after': String(limit.resetSeconds),
    });
  }
  const job = ctx.jobs.submit(
    { kind: 'import', mode: 'append', datasource: datasourceRef(name), url, import_id: '' },
    (id) => `${ctx.baseUrl}/v0/jobs/${id}`,
    async () => {
      const { events, invalidLines, bytes } = await fetchEvents(ctx.session, schema, url, format as ImportFormat, form.get('dialect_delimiter') ?? ',', ctx.importPolicy);
      const result = await ctx.workspace.ingest(name, events, job.id);
      return {
        statistics: { bytes, row_count: result.successful_rows },
        quarantine_rows: result.quarantined_rows,
        invalid_lines: invalidLines,
      };
    },
  );
  job.import_id = job.id;
  return {
    status: 200,
    body: { id: job.id, job_id: job.id, job_url: job.job_url, job, status: job.status, import_id: job.id },
  };
}

/** `POST /v0/datasources/<name>/truncate`: 205 with no body and no content type. */
export async function truncate(req: SandboxRequest, ctx: DatasourcesContext): Promise<SandboxResponse> {
  const refused = needsCreate(ctx.token);
  if (refused) return refused;
  const name = req.params.name!;
  const known = ctx.workspace.get(name) || (name.endsWith(QUARANTINE_SUFFIX) && ctx.workspace.hasTable(name));
  if (!known) return jsonError(404, `Data Source "${name}" does not exist`);
  try {
    await ctx.workspace.truncate(name);
  } catch (error) {
    return jsonError(400, `Failed to truncate: ${clickhouseMessage(error)}`);
  }
  return { status: 205 };
}

/** `POST /v0/datasources/<name>/delete`: a dry-run count, or a delete job. */
export async function deleteRows(req: SandboxRequest, ctx: DatasourcesContext): Promise<SandboxResponse> {
  const refused = needsCreate(ctx.token);
  if (refused) return refused;
  const name = req.params.name!;
  const form = formAndQuery(req);
  const condition = form.get('delete_condition');
  if (!condition) return jsonError(400, "The delete_condition='delete_statement' is mandatory");
  const schema = ctx.workspace.get(name);
  if (!schema) return jsonError(400, `Data Source "${name}" does not exist, can not delete a non existing Data Source`);
  if (!DELETABLE.test(schema.engine)) {
    return jsonError(400, `The data source engine (${schema.engine}) is not supported. Deletion of data is supported for engines from the family MergeTree`);
  }
  let matching: number;
  try {
    const refused = await ctx.gate.checkCondition(countSql(name, condition));
    if (refused) return jsonError(refused.status, refused.error);
    matching = await ctx.workspace.count(name, condition);
  } catch (error) {
    return jsonError(400, `Failed to apply delete_condition='${condition}': ${clickhouseMessage(error)}`);
  }
  // The service compares dry_run to the exact string "true".
  if (form.get('dry_run') === 'true') return { status: 200, body: { rows_to_be_deleted: matching } };
  if (ctx.jobs.active('delete_data') >= ctx.maxActiveDeletes) {
    return jsonError(429, `You have reached the maximum number of delete jobs (${ctx.maxActiveDeletes})`);
  }
  const job = ctx.jobs.submit(
    { kind: 'delete_data', datasource: datasourceRef(name), delete_condition: condition },
    (id) => `${ctx.baseUrl}/v0/jobs/${id}`,
    async () => {
      const rows = await ctx.workspace.count(name, condition);
      await ctx.workspace.deleteWhere(name, condition);
      return { rows_affected: rows };
    },
  );
  return { status: 201, body: { id: job.id, job_id: job.id, job_url: job.job_url, job, status: job.status, delete_id: job.id } };
}
