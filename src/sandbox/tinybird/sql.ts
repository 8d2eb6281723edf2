import type { SandboxResponse } from '../http/types.js';
import { clickhouseCode, clickhouseMessage, type ChdbSession as Session } from './chdb.js';
import { inlineTable, renderPipe, type PipeDef } from './pipes.js';
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
const READ_STATEMENT = /^\s*(\(\s*)*(SELECT|WITH|SHOW|DESCRIBE|DESC|EXPLAIN|EXISTS)\b/i;
/** Table functions that reach files, URLs or other databases: the service does not offer them, and a sandbox must not. */
const TABLE_FUNCTION = /\b(file|url|urlCluster|s3|s3Cluster|gcs|azureBlobStorage|hdfs|remote|remoteSecure|cluster|clusterAllReplicas|mysql|postgresql|mongodb|redis|sqlite|jdbc|odbc|executable|input|deltaLake|iceberg|hudi)\s*\(/i;
const BOOLEAN_SETTINGS = [
  'output_format_json_quote_64bit_integers',
  'output_format_json_quote_denormals',
  'output_format_parquet_string_as_string',
];

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

/**
 * Runs one Query API call: renders a `%` template, resolves `_` to the pipeline, checks
 * the FORMAT against the allowed list (403 otherwise, as the service does), runs it on
 * chdb and answers with the format's content type.
 */
export async function runQuery(
  session: Session,
  workspace: Workspace,
  pipes: ReadonlyMap<string, PipeDef>,
  input: QueryInput,
): Promise<SandboxResponse> {
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
  if (!READ_STATEMENT.test(sql)) return jsonError(400, '[Error] Only SELECT queries are allowed on the Query API');
  const tableFunction = TABLE_FUNCTION.exec(sql)?.[1];
  if (tableFunction) return jsonError(403, `[Error] The '${tableFunction}' table function is not allowed`);
  const settings: string[] = [];
  for (const name of BOOLEAN_SETTINGS) {
    const value = input.params[name];
    if (value === undefined) continue;
    if (value !== '0' && value !== '1') return jsonError(400, `${name} must be 0 or 1`);
    settings.push(`${name} = ${value}`);
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
  if (settings.length && !/\bSETTINGS\b/i.test(finalSql)) finalSql += ` SETTINGS ${settings.join(', ')}`;
  const chosen = format ?? 'JSON';
  const started = performance.now();
  try {
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
