import { defineBlock } from '../src/blocks/define-block.js';
import * as tinybird from '../tools/tinybird/index.js';

export default defineBlock({
  type: 'tinybird',
  name: 'Tinybird',
  description: 'Ingest events, run SQL, call pipe endpoints and maintain Data Sources in Tinybird.',
  color: '#2D27F7',
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
