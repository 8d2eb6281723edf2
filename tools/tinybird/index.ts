/** The event-data (Tinybird) tools, importable alone as `flowblocks/tools/tinybird`. */
import { defineService, lineIcon } from '../../src/kit.js';
import apiCall from './api-call.js';
import appendData from './append-data.js';
import appendDatasource from './append-datasource.js';
import cancelJob from './cancel-job.js';
import createToken from './create-token.js';
import { connection } from './connection.js';
import deleteDatasourceRows from './delete-datasource-rows.js';
import events from './events.js';
import getDatasource from './get-datasource.js';
import getJob from './get-job.js';
import getPipe from './get-pipe.js';
import listDatasources from './list-datasources.js';
import listJobs from './list-jobs.js';
import listPipes from './list-pipes.js';
import queryPipe from './query-pipe.js';
import query from './query.js';
import truncateDatasource from './truncate-datasource.js';

export {
  apiCall,
  appendData,
  appendDatasource,
  cancelJob,
  createToken,
  deleteDatasourceRows,
  events,
  getDatasource,
  getJob,
  getPipe,
  listDatasources,
  listJobs,
  listPipes,
  query,
  queryPipe,
  truncateDatasource,
};
export { runTool } from '../../src/kit.js';
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
} from './ingest/ingest-events.js';
export { appendDatasourceFile } from './append-file.js';
export { LineTooLargeError } from './ingest/ndjson-chunker.js';
export { NdjsonFile, readNdjsonFile } from './ingest/read-ndjson-file.js';

/** Tinybird as a whole: its connection, and its tools in the order its block lists them. */
export const service = defineService({
  id: 'tinybird',
  name: 'Tinybird',
  description: 'Ingest events, run SQL, call pipe endpoints, read the workspace\'s schema and jobs, and maintain Data Sources in Tinybird.',
  docsUrl: 'https://www.tinybird.co/docs/api-reference',
  color: '#2D27F7',
  // A small bird perched on a line chart. Drawn for flowblocks on a 24×24 grid.
  icon: lineIcon(
    '<path d="M5 14.5c0-4.1 2.9-7.5 6.8-7.5 2.1 0 3.7 1 4.5 2.5l3.2 1-3 1.3c-.4 3.6-3 6.2-6.8 6.2H3z"/>',
    '<path d="M7.8 11.2c.6 2.4 3 3.7 5.7 2.7"/>',
    '<circle cx="14" cy="9.3" r=".7" fill="currentColor"/>',
    '<path d="M4 21.5l5-2 5 1 6-3"/>',
  ),
  connection,
  block: { catalog: { kind: 'analytics', tags: ['data-warehouse', 'data-analytics'] } },
  tools: [
    events,
    query,
    queryPipe,
    appendDatasource,
    appendData,
    truncateDatasource,
    deleteDatasourceRows,
    getJob,
    listDatasources,
    getDatasource,
    listPipes,
    getPipe,
    listJobs,
    cancelJob,
    createToken,
    apiCall,
  ],
});
