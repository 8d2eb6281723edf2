/** The event-data (Tinybird) tools, importable alone as `flowblocks/tools/tinybird`. */
import appendDatasource from './append-datasource.js';
import deleteDatasourceRows from './delete-datasource-rows.js';
import events from './events.js';
import getJob from './get-job.js';
import queryPipe from './query-pipe.js';
import query from './query.js';
import truncateDatasource from './truncate-datasource.js';

export { appendDatasource, deleteDatasourceRows, events, getJob, query, queryPipe, truncateDatasource };
export { runTool } from '../../src/harness/execute.js';
export {
  ingestEvents,
  type IngestOptions,
  type IngestProgress,
  type IngestReport,
  type IngestStop,
  type FailedChunk,
  type RowRange,
  type OnAmbiguous,
  type EventSource,
} from './ingest-events.js';
export { LineTooLargeError } from './ndjson-chunker.js';
export { NdjsonFile, readNdjsonFile } from './read-ndjson-file.js';

export const tinybirdTools = [events, query, queryPipe, appendDatasource, truncateDatasource, deleteDatasourceRows, getJob];
