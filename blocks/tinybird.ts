import { defineBlock } from '../src/blocks/define-block.js';
import { lineIcon } from '../src/blocks/line-icon.js';
import * as tinybird from '../tools/tinybird/index.js';

export default defineBlock({
  type: 'tinybird',
  name: 'Tinybird',
  description: 'Ingest events, run SQL, call pipe endpoints and maintain Data Sources in Tinybird.',
  color: '#2D27F7',
  // A small bird perched on a line chart. Drawn for flowblocks on a 24×24 grid.
  icon: lineIcon(
    '<path d="M5 14.5c0-4.1 2.9-7.5 6.8-7.5 2.1 0 3.7 1 4.5 2.5l3.2 1-3 1.3c-.4 3.6-3 6.2-6.8 6.2H3z"/>',
    '<path d="M7.8 11.2c.6 2.4 3 3.7 5.7 2.7"/>',
    '<circle cx="14" cy="9.3" r=".7" fill="currentColor"/>',
    '<path d="M4 21.5l5-2 5 1 6-3"/>',
  ),
  docsUrl: 'https://www.tinybird.co/docs/api-reference',
  operations: [
    { id: 'events', label: 'Send events', tool: tinybird.events },
    { id: 'query', label: 'Run SQL query', tool: tinybird.query },
    { id: 'query_pipe', label: 'Call a pipe endpoint', tool: tinybird.queryPipe },
    { id: 'append_datasource', label: 'Append from URL', tool: tinybird.appendDatasource },
    { id: 'truncate_datasource', label: 'Truncate Data Source', tool: tinybird.truncateDatasource },
    { id: 'delete_datasource_rows', label: 'Delete rows by condition', tool: tinybird.deleteDatasourceRows },
    { id: 'get_job', label: 'Get job', tool: tinybird.getJob },
  ],
});
