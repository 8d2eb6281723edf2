import type { IngestReport } from '../../../tools/tinybird/ingest/ingest-events.js';
import type { ToolError } from '../../harness/types.js';
import { connection } from '../../../tools/tinybird/connection.js';
import { plural, rowRange } from '../../harness/counts.js';

const TOKEN_ENV = connection.credential.env;

/** The totals line is read by scripts too: counts without thousands separators. */
const plain = { grouped: false };

const errorText = (e: ToolError) => `${e.code}${e.status ? ` ${e.status}` : ''}: ${e.message}`;

/** Where the run went, for the advice on what to fix before resuming. */
export interface IngestContext {
  datasource: string;
  baseUrl: string;
  /** Every row of the input was sent (a file read to its end); undefined when not known (stdin). */
  allRowsSent?: boolean;
  /** The signal that stopped the run (Ctrl-C is SIGINT). */
  stoppedBy?: 'SIGINT' | 'SIGTERM';
}

/** What to fix before a stopped run is resumed, or undefined when sending again is all it takes. */
function fixFirst(error: ToolError, context: IngestContext): string | undefined {
  if (error.status === 401 || error.status === 403) {
    return `the token was refused (${error.status}): give one with DATASOURCES:APPEND on ${context.datasource} (and DATASOURCES:CREATE if it does not exist yet), with --token or $${TOKEN_ENV}`;
  }
  if (error.status === 404) return `${context.baseUrl} answered 404: check --base-url (the API's base URL, e.g. https://api.tinybird.co) and --datasource`;
  if (error.code === 'network') return `nothing answered at ${context.baseUrl}: check --base-url, or start the service`;
  return undefined;
}

/**
 * What `flowblocks ingest` says when a run is over: the totals on stdout; on stderr every
 * range that is not in (or may be in, or may be in twice), and, for a stopped run, what was
 * not sent, what to fix first and how to resume.
 */
export function ingestSummary(report: IngestReport, context: IngestContext): { stdout: string; stderr: string[] } {
  const skipped = report.skipped_rows ? `, ${plural(report.skipped_rows, 'row', plain)} skipped` : '';
  const stdout = `${plural(report.successful_rows, 'row', plain)} ingested, ${report.quarantined_rows} quarantined, ${plural(report.requests, 'request', plain)}${skipped}\n`;
  const stderr = [
    ...report.failed.map((f) => `${rowRange(f.first_row, f.last_row)} not ingested: ${errorText(f.error)}\n`),
    ...report.unknown.map(
      (f) => {
        const [it, them] = f.first_row === f.last_row ? ['it', 'it'] : ['they', 'them'];
        return `${rowRange(f.first_row, f.last_row)}: outcome unknown, ${it} may be in the Data Source (check before sending ${them} again): ${errorText(f.error)}\n`;
      },
    ),
    ...report.maybe_duplicated.map((r) => `${rowRange(r.first_row, r.last_row)} may be in the Data Source twice (sent again after a fault with an unknown outcome)\n`),
  ];
  const stop = report.stopped;
  if (stop) {
    const notSent =
      context.allRowsSent === true
        ? 'every row was sent before the stop'
        : `rows from ${stop.not_sent_from_row} on${context.allRowsSent === undefined ? ' (if the input has more)' : ''} were not sent`;
    const fix = fixFirst(stop.error, context);
    stderr.push(
      context.stoppedBy ? `stopped by ${context.stoppedBy}${context.stoppedBy === 'SIGINT' ? ' (Ctrl-C)' : ''}\n` : `stopped: ${errorText(stop.error)}\n`,
      `${notSent}; no row from ${stop.resume_from_row} on is in the Data Source.\n`,
      fix
        ? `fix first: ${fix}; then resume with the same command and --from-row ${stop.resume_from_row}\n`
        : `resume with the same command and --from-row ${stop.resume_from_row}\n`,
    );
  }
  return { stdout, stderr };
}
