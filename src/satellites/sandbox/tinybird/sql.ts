import type { SandboxResponse } from '../http/types.js';
import { clickhouseCode, clickhouseMessage } from './chdb.js';
import { inlineTable, renderPipe, type PipeDef } from './pipes.js';
import { OUTPUT_SETTINGS, type OutputSettings, type ReadOnlySessions } from './read-only-sessions.js';
import type { SqlGate } from './sql-gate.js';
import { renderTemplate, TemplateError, type TemplateParams } from './template.js';
import { QUARANTINE_SUFFIX, type Workspace } from './workspace.js';

/** The formats the Query API serves, with the content type of each. */
const FORMATS: Record<string, string> = {
  JSON: 'application/json',
  CSV: 'text/csv; charset=utf-8',
  CSVWithNames: 'text/csv; charset=utf-8',
  TSV: 'text/tab-separated-values; charset=utf-8',
  TSVWithNames: 'text/tab-separated-values; charset=utf-8',
  PrettyCompact: 'text/plain; charset=utf-8',
  JSONEachRow: 'application/x-ndjson',
  Parquet: 'application/octet-stream',
  JSONStrings: 'application/json',
  Prometheus: 'text/plain; version=0.0.4',
};

const FORMAT_CLAUSE = /\s+FORMAT\s+([A-Za-z]\w*)\s*;?\s*$/i;

export const jsonError = (status: number, error: string, headers?: Record<string, string>): SandboxResponse => ({
  status,
  body: { error, documentation: 'https://www.tinybird.co/docs/api-reference/query-api' },
  ...(headers ? { headers } : {}),
});

/** The trailing FORMAT clause, matched case-insensitively, and the SQL without it. */
export function splitFormat(sql: string): { sql: string; format: string | undefined; known: boolean } {
  const match = FORMAT_CLAUSE.exec(sql);
  if (!match) return { sql: sql.trim().replace(/;\s*$/, ''), format: undefined, known: true };
  const format = Object.keys(FORMATS).find((name) => name.toLowerCase() === match[1]!.toLowerCase());
  return { sql: sql.slice(0, match.index).trim(), format: format ?? match[1], known: format !== undefined };
}

/** Maps a ClickHouse failure to the status the Query API answers with. */
function errorResponse(error: unknown, workspace: Workspace): SandboxResponse {
  const code = clickhouseCode(error);
  const message = clickhouseMessage(error);
  const headers = code === undefined ? undefined : { 'x-db-exception-code': String(code) };
  if (code === 60 || code === 81) {
    const table = /(?:table|identifier|Database)[^'`]*['`]([\w.]+)['`]/i.exec(message)?.[1]?.split('.').pop() ?? '';
    if (table.endsWith(QUARANTINE_SUFFIX) && workspace.get(table.slice(0, -QUARANTINE_SUFFIX.length))) {
      return jsonError(404, `Table '${table}' is not found: the quarantine table is created by the first quarantined row`, headers);
    }
    return jsonError(403, `Resource '${table}' not found`, headers);
  }
  // A write or a settings change the read-only connection refused.
  if (code === 164) return jsonError(403, `[Error] ${message}`, headers);
  if (code === 159) return jsonError(408, `[Error] Timeout exceeded: ${message}`, headers);
  if (code === 202) return jsonError(500, `Too many simultaneous queries, retry the request: ${message}`, headers);
  return jsonError(400, `[Error] ${message}`, headers);
}

export interface QueryInput {
  q: string;
  pipeline?: string;
  /** The request's other parameters: template values and output settings. */
  params: TemplateParams;
}

/** What a Query API call runs on: the SQL gate and the read-only connections. */
export interface QueryContext {
  workspace: Workspace;
  pipes: ReadonlyMap<string, PipeDef>;
  gate: SqlGate;
  readOnly: ReadOnlySessions;
}

/**
 * Runs one Query API call: renders a `%` template, resolves `_` to the pipeline, checks
 * the FORMAT against the allowed list (403 otherwise, as the service does), has the SQL
 * gate check the final statement, runs it on a read-only chdb connection and answers with
 * the format's content type.
 */
export async function runQuery({ workspace, pipes, gate, readOnly }: QueryContext, input: QueryInput): Promise<SandboxResponse> {
  let text = input.q;
  try {
    if (text.trimStart().startsWith('%')) text = renderTemplate(text, input.params);
  } catch (error) {
    if (error instanceof TemplateError) return jsonError(400, error.message);
    throw error;
  }
  const { sql, format, known } = splitFormat(text);
  if (!known) {
    return jsonError(403, `invalid format, available ones: ${Object.keys(FORMATS).join(', ')}`);
  }
  const settings: OutputSettings = {};
  for (const name of OUTPUT_SETTINGS) {
    const value = input.params[name];
    if (value === undefined) continue;
    if (value !== '0' && value !== '1') return jsonError(400, `${name} must be 0 or 1`);
    settings[name] = value;
  }
  let finalSql = sql;
  if (input.pipeline) {
    const pipe = pipes.get(input.pipeline);
    if (!pipe) return jsonError(403, `Resource '${input.pipeline}' not found`);
    try {
      finalSql = inlineTable(sql, '_', renderPipe(pipe, input.params));
    } catch (error) {
      if (error instanceof TemplateError) return jsonError(400, error.message);
      throw error;
    }
  }
  const chosen = format ?? 'JSON';
  const started = performance.now();
  try {
    const refused = await gate.check(finalSql);
    if (refused) return jsonError(refused.status, refused.error);
    const session = await readOnly.get(settings);
    const result = await session.queryAsync(finalSql, { format: chosen });
    const elapsed = (performance.now() - started) / 1000;
    return {
      status: 200,
      headers: {
        'content-type': FORMATS[chosen]!,
        'x-tb-statistics': JSON.stringify({ elapsed, db: result.elapsed, fetch: 0, threads: 1 }),
      },
      body: chosen === 'Parquet' ? result.bytes() : result.text(),
    };
  } catch (error) {
    return errorResponse(error, workspace);
  }
}
