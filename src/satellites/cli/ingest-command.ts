import { stat } from 'node:fs/promises';
import { closeSharedDispatcher } from '../../harness/send/dispatcher.js';
import { connection } from '../../../tools/tinybird/connection.js';
import { ingestEvents, type IngestProgress } from '../../../tools/tinybird/ingest/ingest-events.js';
import { readNdjsonFile } from '../../../tools/tinybird/ingest/read-ndjson-file.js';
import { datasourceParam } from '../../../tools/tinybird/params.js';
import { parseCommandArgs, type CliCommand } from './command.js';
import { ingestSummary } from './ingest-report.js';
import { renderProgress } from './progress-bar.js';

// The service's own settings: the variables the agents read too, and the first region's URL.
const TOKEN_ENV = connection.credential.env;
const BASE_URL_ENV = connection.baseUrl.env;
const DEFAULT_BASE_URL = connection.baseUrl.default;

const USAGE = `Usage: flowblocks ingest <file.ndjson | -> --datasource <name> [options]

Streams NDJSON into a Tinybird Data Source in requests under the per-request cap.
  --datasource <name>         target Data Source (required)
  --base-url <url>            API base URL (default $${BASE_URL_ENV} or ${DEFAULT_BASE_URL})
  --token <token>             API token (default $${TOKEN_ENV}; prefer the variable: flags end up in shell history)
  --gzip                      gzip each request
  --wait                      wait for the database acknowledgment of every request
  --concurrency <n>           requests in flight (default 2)
  --max-request-bytes <n>     bytes per request at most (default 10000000)
  --from-row <n>              start at row n (1-based; the rows before it are skipped), to resume a stopped run
  --on-ambiguous <stop|retry> after a fault that leaves the outcome unknown (a cut connection): stop and
                              report the rows as unknown (default), or send them again (they may land twice)

Stops at the first answer no retry can change (401, 403, 404, connection refused), names the
rows not sent and the --from-row to resume from, and exits 1. Ctrl-C (SIGINT) or SIGTERM stops
the same way: the requests out are cut (their rows reported as unknown) and the report printed.
Exit codes: 0 every row ingested, 1 rows failed, unknown or not sent (the report says which), 2 usage error,
130 stopped by SIGINT, 143 stopped by SIGTERM (with the same report).
`;

/** The shell's exit codes for a run ended by a signal (128 + its number). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT;

/** Redraws in place on a terminal; elsewhere (CI logs) prints a line every few seconds. */
function progressPrinter(stderr: (s: string) => void, tty: boolean) {
  // Without a terminal the first line waits its interval too: a short run prints its end once.
  let last = tty ? 0 : Date.now();
  let ended = false;
  return (line: string, final = false) => {
    const now = Date.now();
    if (ended || (!final && now - last < (tty ? 100 : 5000))) return;
    last = now;
    ended = final;
    stderr(tty ? `\r\x1b[2K${line}${final ? '\n' : ''}` : `${line}\n`);
  };
}

export const command: CliCommand = {
  summary: 'stream an NDJSON file into a Tinybird Data Source, with a progress bar',
  async run(argv, io) {
    const parsed = parseCommandArgs(
      argv,
      {
        datasource: { type: 'string' },
        'base-url': { type: 'string' },
        token: { type: 'string' },
        gzip: { type: 'boolean' },
        wait: { type: 'boolean' },
        concurrency: { type: 'string' },
        'max-request-bytes': { type: 'string' },
        'from-row': { type: 'string' },
        'on-ambiguous': { type: 'string' },
      },
      USAGE,
      io,
      true,
    );
    if (typeof parsed === 'number') return parsed;
    const { values } = parsed;
    const file = parsed.positionals[0];
    const token = values.token ?? process.env[TOKEN_ENV];
    const missing = [!file && '<file>', !values.datasource && '--datasource', !token && `--token or $${TOKEN_ENV}`].filter(Boolean);
    if (missing.length) {
      io.stderr(`missing ${missing.join(', ')}\n\n${USAGE}`);
      return 2;
    }
    const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
    const maxRequestBytes = values['max-request-bytes'] === undefined ? undefined : Number(values['max-request-bytes']);
    if ((concurrency !== undefined && !(concurrency >= 1)) || (maxRequestBytes !== undefined && !(maxRequestBytes >= 1024))) {
      io.stderr(`--concurrency takes a number from 1, --max-request-bytes one from 1024\n`);
      return 2;
    }
    const fromRow = values['from-row'] === undefined ? 1 : Number(values['from-row']);
    const onAmbiguous = values['on-ambiguous'];
    if (!Number.isInteger(fromRow) || fromRow < 1 || (onAmbiguous !== undefined && onAmbiguous !== 'stop' && onAmbiguous !== 'retry')) {
      io.stderr(`--from-row takes a row number from 1, --on-ambiguous stop or retry\n`);
      return 2;
    }
    const datasource = datasourceParam.safeParse(values.datasource);
    if (!datasource.success) {
      io.stderr(`--datasource ${values.datasource}: ${datasource.error.issues[0]?.message}\n`);
      return 2;
    }
    let totalBytes: number | undefined;
    if (file !== '-') {
      const found = await stat(file!).catch((error: NodeJS.ErrnoException) => error);
      if (found instanceof Error) {
        io.stderr(`cannot read ${file}: ${found.code === 'ENOENT' ? 'no such file' : found.code === 'EACCES' ? 'permission denied' : found.message}\n`);
        return 2;
      }
      if (!found.isFile()) {
        io.stderr(`cannot read ${file}: ${found.isDirectory() ? 'it is a directory' : 'not a regular file'}; give an NDJSON file or - for stdin\n`);
        return 2;
      }
      totalBytes = found.size;
    }
    const baseUrl = values['base-url'] ?? process.env[BASE_URL_ENV] ?? DEFAULT_BASE_URL;
    const started = Date.now();
    const print = progressPrinter(io.stderr, Boolean(process.stderr.isTTY));
    const figures = (p: IngestProgress) =>
      renderProgress({
        bytes: p.bytes + p.skipped_bytes,
        totalBytes,
        ingestedBytes: p.ingested_bytes,
        refusedBytes: p.bytes - p.ingested_bytes,
        rows: p.rows,
        ingestedRows: p.successful_rows,
        quarantinedRows: p.quarantined_rows,
        requests: p.requests,
        failedRows: p.failed_rows,
        unknownRows: p.unknown_rows,
        skippedRows: p.skipped_rows,
        elapsedMs: Date.now() - started,
      });
    // Ctrl-C or SIGTERM: stop as at any other stop, with the report; a second one exits at once.
    const interrupt = new AbortController();
    let stoppedBy: StopSignal | undefined;
    const onSignal = (name: StopSignal) => {
      if (stoppedBy) process.exit(SIGNAL_EXIT[stoppedBy]);
      stoppedBy = name;
      interrupt.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const report = await ingestEvents(
        { base_url: baseUrl, token: token!, datasource: values.datasource! },
        file === '-' ? process.stdin : readNdjsonFile(file!),
        {
          gzip: values.gzip,
          wait: values.wait,
          concurrency,
          maxRequestBytes,
          skipRows: fromRow - 1,
          onAmbiguous,
          onProgress: (p) => print(figures(p)),
          signal: interrupt.signal,
        },
      );
      print(figures(report), true);
      const summary = ingestSummary(report, {
        datasource: values.datasource!,
        baseUrl,
        // A file whose every byte went out: no row is left unsent (a last row without its newline is sent with one).
        allRowsSent: totalBytes === undefined ? undefined : report.bytes + report.skipped_bytes >= totalBytes,
        stoppedBy,
      });
      io.stdout(summary.stdout);
      for (const line of summary.stderr) io.stderr(line);
      if (stoppedBy) return SIGNAL_EXIT[stoppedBy];
      return report.failed.length || report.unknown.length || report.stopped ? 1 : 0;
    } catch (error) {
      // A refused target's message names each issue (`invalid ingest target: token: required …`).
      const detail = (error as { error?: { message: string } }).error;
      io.stderr(`${detail ? detail.message : (error as Error).message}\n`);
      return 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await closeSharedDispatcher();
    }
  },
};
