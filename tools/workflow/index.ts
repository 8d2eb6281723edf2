/** The workflow platform's own API tools, importable alone as `flowblocks/tools/workflow`. */
import execute from './execute.js';
import getExecution from './get-execution.js';
import getJob from './get-job.js';
import getLog from './get-log.js';
import listLogs from './list-logs.js';

export { execute, getExecution, getJob, getLog, listLogs };
export { runTool } from '../../src/harness/execute.js';

export const workflowTools = [execute, getJob, listLogs, getLog, getExecution];
