import type { SandboxRequest, SandboxResponse } from '../http/types.js';
import { csvEvents } from './csv.js';
import type { DatasourcesContext } from './datasources-route.js';
import { parseEvents } from './events-route.js';
import { jsonError } from './sql.js';
import { allows } from './tokens.js';

/** The file parts of a multipart/form-data body, by field name. */
export function multipartFiles(body: Buffer, contentType: string): Map<string, string> | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return undefined;
  const text = body.toString('utf8');
  const parts = new Map<string, string>();
  for (const chunk of text.split(`--${marker}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const split = chunk.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = chunk.slice(0, split);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name) parts.set(name, chunk.slice(split + 4).replace(/\r\n$/, ''));
  }
  return parts;
}

/** `POST /v0/datasources?mode=append` with the rows in a multipart body: imported at once, answered with the counts. */
export async function appendFromBody(req: SandboxRequest, ctx: DatasourcesContext & { persist: () => void }): Promise<SandboxResponse> {
  const q = req.query;
  const name = q.get('name');
  if ((q.get('mode') ?? 'create') !== 'append') return jsonError(400, 'mode=create is not emulated: declare Data Sources in the sandbox schema or send events');
  if (!name) return jsonError(400, 'Data Source name must be set with mode=append');
  if (!allows(ctx.token, 'DATASOURCES:CREATE') && !allows(ctx.token, 'DATASOURCES:APPEND', name)) {
    return jsonError(403, `Token does not have DATASOURCES:APPEND scope for Data Source "${name}"`);
  }
  const schema = ctx.workspace.get(name);
  if (!schema) return jsonError(404, `Data Source "${name}" does not exist`);
  const format = (q.get('format') ?? 'csv').toLowerCase();
  if (format !== 'csv' && format !== 'ndjson') return jsonError(400, `Format '${format}' is not supported in a request body: csv or ndjson`);
  const files = multipartFiles(req.body, String(req.headers['content-type'] ?? ''));
  // The docs name the part after the format (`-F ndjson=@…`); the official SDK sends every file as `csv`.
  const data = files?.get(format) ?? files?.get('csv') ?? (files?.size === 1 ? [...files.values()][0] : undefined);
  if (data === undefined) return jsonError(400, `The body has no ${format} part`);
  const limit = ctx.importLimit();
  if (!limit.allowed) {
    return jsonError(429, 'Too many requests: create, append and replace from a file or URL share 5 requests per minute', { 'retry-after': String(limit.resetSeconds) });
  }
  const delimiter = q.get('dialect_delimiter') ?? ',';
  const newLine = q.get('dialect_new_line');
  const text = newLine && newLine !== '\n' ? data.split(newLine).join('\n') : data;
  let events: unknown[];
  let invalid = 0;
  if (format === 'csv') events = csvEvents(text, schema.columns.map((c) => c.name), delimiter);
  else {
    events = [];
    for (const line of text.split('\n').filter((l) => l.trim())) {
      try {
        events.push(...parseEvents(line));
      } catch {
        invalid++;
      }
    }
  }
  const importId = crypto.randomUUID();
  const result = await ctx.workspace.ingest(name, events, importId);
  ctx.persist();
  return {
    status: 200,
    body: { import_id: importId, datasource: { id: `t_${name}`, name }, invalid_lines: invalid, quarantine_rows: result.quarantined_rows, error: false },
  };
}
