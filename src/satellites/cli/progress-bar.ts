export interface ProgressFigures {
  /** Bytes of the input gone through: answered and skipped; they place the bar. */
  bytes: number;
  /** Total bytes when known (a file), for the bar and the percentage. */
  totalBytes?: number;
  /** Bytes the service took: the rate counts only these, never refused ones. */
  ingestedBytes: number;
  /** Bytes answered but not in (failed, or their outcome unknown): drawn as `x`, left out of the percentage. */
  refusedBytes?: number;
  /** Rows answered (ingested, quarantined, failed or unknown). */
  rows: number;
  /** Rows the service took; shown as "ingested" when given (default: `rows`). */
  ingestedRows?: number;
  quarantinedRows?: number;
  requests: number;
  failedRows: number;
  unknownRows?: number;
  skippedRows?: number;
  elapsedMs: number;
}

export function formatBytes(bytes: number): string {
  if (bytes < 999.5) return `${Math.round(bytes)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;
const rowsText = (n: number | undefined, what: string) => (n ? `, ${plural(n, 'row')} ${what}` : '');

/** One line of progress: a bar when the total is known, then sizes, rows, requests and the rate of what was ingested. */
export function renderProgress(p: ProgressFigures, width = 24): string {
  const seconds = Math.max(p.elapsedMs / 1000, 0.001);
  // Only bytes the service took make a throughput; refused ones do not.
  const rate = p.ingestedBytes > 0 ? `, ${formatBytes(p.ingestedBytes / seconds)}/s` : '';
  const ingested = p.ingestedRows ?? p.rows;
  const counts = `${plural(ingested, 'row')} ingested, ${plural(p.requests, 'request')}${rate}`;
  const tail = `${rowsText(p.quarantinedRows, 'quarantined')}${rowsText(p.failedRows, 'failed')}${rowsText(p.unknownRows, 'unknown')}${rowsText(p.skippedRows, 'skipped')}`;
  if (!p.totalBytes) return `${formatBytes(p.bytes)} · ${counts}${tail}`;
  // A last row without a final newline is sent with one: the bar counts the file's own bytes.
  const bytes = Math.min(p.bytes, p.totalBytes);
  // What is in (ingested or skipped) fills the bar and makes the percentage; what was refused is crossed out.
  const refused = Math.min(p.refusedBytes ?? 0, bytes);
  const inBytes = bytes - refused;
  const share = inBytes / p.totalBytes;
  const filled = Math.round(share * width);
  const crossed = Math.round((bytes / p.totalBytes) * width) - filled;
  const bar = `[${'#'.repeat(filled)}${'x'.repeat(crossed)}${'-'.repeat(width - filled - crossed)}]`;
  const notIn = refused ? `, ${formatBytes(refused)} not in` : '';
  return `${bar} ${(share * 100).toFixed(0).padStart(3)}% ${formatBytes(inBytes)}/${formatBytes(p.totalBytes)}${notIn} · ${counts}${tail}`;
}
