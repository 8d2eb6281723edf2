import type { ChdbSession as Session } from './chdb.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { csvEvents } from './csv.js';
import { parseEvents } from './events-route.js';
import type { DatasourceSchema } from './schema.js';

export type ImportFormat = 'csv' | 'ndjson' | 'parquet';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Why the sandbox refuses to fetch a URL, or undefined when it may: it fetches loopback only. */
export function refuseUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Invalid url';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Url is not supported, only http, and https schemes are';
  if (!LOOPBACK.has(url.hostname)) return 'The sandbox only imports from loopback URLs (127.0.0.1, localhost, [::1])';
  return undefined;
}

/** Redirects followed, each to a URL checked as the first was. */
const MAX_REDIRECTS = 5;

/**
 * Fetches a URL without letting fetch follow redirects: each Location is checked with
 * `refuseUrl` before it is requested, so a loopback server cannot bounce the sandbox on to
 * another host.
 */
async function fetchLoopback(url: string): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const refused = refuseUrl(current);
    if (refused) throw new Error(hop === 0 ? refused : `Redirected to ${current}: ${refused}`);
    const response = await fetch(current, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel();
    if (hop === MAX_REDIRECTS) throw new Error(`Failed to fetch ${url}: more than ${MAX_REDIRECTS} redirects`);
    current = new URL(location, current).href;
  }
}

/** Reads Parquet through ClickHouse itself, from a temporary file. */
async function parquetEvents(session: Session, bytes: Uint8Array): Promise<unknown[]> {
  const dir = await mkdtemp(join(tmpdir(), 'flowblocks-import-'));
  try {
    const path = join(dir, 'data.parquet');
    await writeFile(path, bytes);
    const result = await session.queryAsync(`SELECT * FROM file('${path.replace(/'/g, "\\'")}', Parquet)`, { format: 'JSONEachRow' });
    return parseEvents(result.text());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Fetches a file and turns it into events for the Data Source's columns. */
export async function fetchEvents(
  session: Session,
  schema: DatasourceSchema,
  url: string,
  format: ImportFormat,
  delimiter: string,
): Promise<{ events: unknown[]; bytes: number }> {
  const response = await fetchLoopback(url);
  if (!response.ok) throw new Error(`Failed to fetch ${url}: HTTP ${response.status}`);
  let bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = new Uint8Array(gunzipSync(bytes));
  if (format === 'parquet') return { events: await parquetEvents(session, bytes), bytes: bytes.byteLength };
  const text = new TextDecoder().decode(bytes);
  const columns = schema.columns.map((c) => c.name);
  return { events: format === 'csv' ? csvEvents(text, columns, delimiter) : parseEvents(text), bytes: bytes.byteLength };
}
