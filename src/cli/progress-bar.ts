export interface ProgressFigures {
  /** Bytes of the input gone through: answered and skipped; they place the bar. */
  bytes: number;
  /** Total bytes when known (a file), for the bar and the percentage. */
  totalBytes?: number;
  /** Bytes the service took: the rate counts only these, never refused ones. */
  ingestedBytes: number;
  rows: number;
  requests: number;
  failedRows: number;
  unknownRows?: number;
  skippedRows?: number;
  elapsedMs: number;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

const rowsText = (n: number | undefined, what: string) => (n ? `, ${n.toLocaleString('en-US')} rows ${what}` : '');

/** One line of progress: a bar when the total is known, then sizes, rows, requests and rate. */
export function renderProgress(p: ProgressFigures, width = 24): string {
  const seconds = Math.max(p.elapsedMs / 1000, 0.001);
  const rate = `${formatBytes(p.ingestedBytes / seconds)}/s`;
  const counts = `${p.rows.toLocaleString('en-US')} rows, ${p.requests} requests, ${rate}`;
  const tail = `${rowsText(p.failedRows, 'failed')}${rowsText(p.unknownRows, 'unknown')}${rowsText(p.skippedRows, 'skipped')}`;
  if (!p.totalBytes) return `${formatBytes(p.bytes)} · ${counts}${tail}`;
  const share = Math.min(1, p.bytes / p.totalBytes);
  const filled = Math.round(share * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  return `${bar} ${(share * 100).toFixed(0).padStart(3)}% ${formatBytes(p.bytes)}/${formatBytes(p.totalBytes)} · ${counts}${tail}`;
}
