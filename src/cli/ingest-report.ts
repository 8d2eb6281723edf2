import type { IngestReport } from '../../tools/tinybird/ingest-events.js';
import type { ToolError } from '../harness/types.js';

const errorText = (e: ToolError) => `${e.code}${e.status ? ` ${e.status}` : ''}: ${e.message}`;

/**
 * What `flowblocks ingest` says when a run is over: the totals on stdout; on stderr every
 * range that is not in (or may be in, or may be in twice), and how to resume a stopped run.
 */
export function ingestSummary(report: IngestReport): { stdout: string; stderr: string[] } {
  const skipped = report.skipped_rows ? `, ${report.skipped_rows} rows skipped` : '';
  const stdout = `${report.successful_rows} rows ingested, ${report.quarantined_rows} quarantined, ${report.requests} requests${skipped}\n`;
  const stderr = [
    ...report.failed.map((f) => `rows ${f.first_row}-${f.last_row} not ingested: ${errorText(f.error)}\n`),
    ...report.unknown.map(
      (f) => `rows ${f.first_row}-${f.last_row} outcome unknown, they may be in the Data Source (check before sending them again): ${errorText(f.error)}\n`,
    ),
    ...report.maybe_duplicated.map((r) => `rows ${r.first_row}-${r.last_row} may be in the Data Source twice (sent again after a fault with an unknown outcome)\n`),
  ];
  const stop = report.stopped;
  if (stop) {
    stderr.push(
      `stopped: ${errorText(stop.error)}\n`,
      `rows from ${stop.not_sent_from_row} on were not sent; no row from ${stop.resume_from_row} on is in the Data Source.\n`,
      `resume with the same command and --from-row ${stop.resume_from_row}\n`,
    );
  }
  return { stdout, stderr };
}
