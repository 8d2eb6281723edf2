/** The workflow platform's own API tools, importable alone as `flowblocks/tools/workflow`. */
import { defineService, lineIcon } from '../../src/kit.js';
import apiCall from './api-call.js';
import { connection } from './connection.js';
import execute from './execute.js';
import getExecution from './get-execution.js';
import getJob from './get-job.js';
import getLog from './get-log.js';
import listLogs from './list-logs.js';

export { apiCall, execute, getExecution, getJob, getLog, listLogs };
export { runTool } from '../../src/kit.js';

/** The workflow platform as a whole: its connection, and its tools in the order its block lists them. */
export const service = defineService({
  id: 'workflow',
  name: 'Workflow',
  description:
    "Call another deployed Sim workflow (and wait for it, or start it in the background and watch its job) and read its execution logs, through Sim's external API (any platform serving the same execution and log API works too).",
  color: '#6F3DFA',
  // Three steps joined by curved edges. Drawn for flowblocks on a 24×24 grid.
  icon: lineIcon(
    '<rect x="2.5" y="3" width="7.5" height="6" rx="1.5"/>',
    '<rect x="14" y="9" width="7.5" height="6" rx="1.5"/>',
    '<rect x="2.5" y="15" width="7.5" height="6" rx="1.5"/>',
    '<path d="M10 6c2.6 0 1.4 6 4 6"/>',
    '<path d="M14 12c-2.6 0-1.4 6-4 6"/>',
  ),
  // Sim's external API reference: the execution, job and log endpoints these tools call.
  docsUrl: 'https://docs.sim.ai/execution/api',
  connection,
  block: { catalog: { kind: 'productivity', tags: ['automation'] } },
  tools: [execute, getJob, listLogs, getLog, getExecution, apiCall],
});
