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

/** 100 MiB: the most an import reads from a URL, and the most a gzip file inflates to. */
export const DEFAULT_MAX_IMPORT_BYTES = 100 * 1024 * 1024;

/**
 * Where an import from URL may fetch: loopback only, and only the ports of the sandbox itself
 * (its prefixed port and each service's own) or of the origins given at start
 * (`tinybird.importFrom`). Any other local service is never fetched, so its answer cannot
 * be read back through a Data Source or its quarantine.
 */
export interface ImportPolicy {
  /** The sandbox's own origins; read at each import, since its ports are known only once it listens. */
  ownOrigins: () => readonly string[];
  /** Origins given at start, checked by `importOrigins`. */
  importFrom: readonly string[];
  /** Bytes read and bytes inflated, each at most this. */
  maxBytes: number;
}

const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/** The origins given in `tinybird.importFrom`, checked at start: http(s) on a loopback name. */
export function importOrigins(origins: readonly string[] = []): string[] {
  return origins.map((origin) => {
    const url = URL.parse(origin);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !LOOPBACK.has(url.hostname)) {
      throw new TypeError(`tinybird.importFrom: ${JSON.stringify(origin)} is not an http(s) origin on 127.0.0.1, localhost or [::1]`);
    }
    return url.origin;
  });
}

/** Why the sandbox refuses to fetch a URL, or undefined when it may. */
export function refuseUrl(raw: string, policy: ImportPolicy): string | undefined {
  const url = URL.parse(raw);
  if (!url) return 'Invalid url';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Url is not supported, only http, and https schemes are';
  if (!LOOPBACK.has(url.hostname)) return 'The sandbox only imports from loopback URLs (127.0.0.1, localhost, [::1])';
  // Any loopback name of an allowed port: 127.0.0.1, localhost and [::1] reach the same listener.
  const allowed = [...policy.ownOrigins(), ...policy.importFrom].map((origin) => new URL(origin));
  if (!allowed.some((origin) => origin.protocol === url.protocol && portOf(origin) === portOf(url))) {
    return 'The sandbox only imports from its own ports and the origins given at start (tinybird.importFrom)';
  }
  return undefined;
}

/** Redirects followed, each to a URL checked as the first was. */
const MAX_REDIRECTS = 5;

/**
 * Fetches a URL without letting fetch follow redirects: each Location is checked with
 * `refuseUrl` before it is requested, so an allowed server cannot bounce the sandbox on to
 * another port or host.
 */
async function fetchAllowed(url: string, policy: ImportPolicy): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const refused = refuseUrl(current, policy);
    if (refused) throw new Error(hop === 0 ? refused : `Redirected to ${current}: ${refused}`);
    const response = await fetch(current, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel();
    if (hop === MAX_REDIRECTS) throw new Error(`Failed to fetch ${url}: more than ${MAX_REDIRECTS} redirects`);
    current = new URL(location, current).href;
  }
}

const tooLarge = (maxBytes: number, what: string) => new Error(`File too large: ${what} more than ${maxBytes} bytes, the import limit`);

/** The body, read with a counter: past `maxBytes` the download is cancelled, never buffered. */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(maxBytes, 'the download is');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes, 'the download is');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** A gzip body inflated to at most `maxBytes`: zlib stops there instead of filling memory. */
function gunzipCapped(bytes: Uint8Array, maxBytes: number): Uint8Array {
  try {
    return new Uint8Array(gunzipSync(bytes, { maxOutputLength: maxBytes }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxBytes, 'decompressed, the file is');
    throw new Error(`Failed to decompress the file: ${(error as Error).message}`);
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

/**
 * Fetches a file and turns it into events for the Data Source's columns. A line that is not a
 * JSON object is counted in `invalidLines` and dropped, as Tinybird's import counts
 * `invalid_lines`: the quarantine keeps rows with their columns, never raw text of the file.
 */
export async function fetchEvents(
  session: Session,
  schema: DatasourceSchema,
  url: string,
  format: ImportFormat,
  delimiter: string,
  policy: ImportPolicy,
): Promise<{ events: Record<string, unknown>[]; invalidLines: number; bytes: number }> {
  const response = await fetchAllowed(url, policy);
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`Failed to fetch ${url}: HTTP ${response.status}`);
  }
  let bytes = await readCapped(response, policy.maxBytes);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipCapped(bytes, policy.maxBytes);
  const columns = schema.columns.map((c) => c.name);
  const parsed = format === 'parquet' ? await parquetEvents(session, bytes) : format === 'csv' ? csvEvents(new TextDecoder().decode(bytes), columns, delimiter) : parseEvents(new TextDecoder().decode(bytes));
  const events = parsed.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item));
  return { events, invalidLines: parsed.length - events.length, bytes: bytes.byteLength };
}
