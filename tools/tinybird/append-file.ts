import { readFile } from 'node:fs/promises';
import { runTool, type ExecuteOptions } from '../../src/kit.js';
import appendData from './append-data.js';

/**
 * Appends a local CSV or NDJSON file (for programs and the CLI; never offered to a model):
 * the file is read and sent as `tinybird_append_data` sends data. The format defaults to the
 * file's extension.
 */
export async function appendDatasourceFile(
  params: { base_url: string; token: string; datasource: string; format?: 'csv' | 'ndjson'; dialect_delimiter?: string; dialect_new_line?: string; dialect_escapechar?: string },
  path: string,
  options: ExecuteOptions = {},
) {
  const data = await readFile(path, 'utf8');
  const format = params.format ?? (/\.(ndjson|jsonl)$/i.test(path) ? 'ndjson' : 'csv');
  return runTool(appendData, { ...params, format, data }, options);
}
