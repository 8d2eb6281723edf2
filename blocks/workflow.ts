import { defineBlock } from '../src/blocks/define-block.js';
import * as workflow from '../tools/workflow/index.js';

export default defineBlock({
  type: 'workflow',
  name: 'Workflow',
  description:
    "Call another deployed workflow (and wait for it, or start it in the background and watch its job) and read the platform's execution logs.",
  color: '#6F3DFA',
  operations: [
    { id: 'execute', label: 'Execute workflow', tool: workflow.execute },
    { id: 'get_job', label: 'Get job', tool: workflow.getJob },
    { id: 'list_logs', label: 'List logs', tool: workflow.listLogs },
    { id: 'get_log', label: 'Get log', tool: workflow.getLog },
    { id: 'get_execution', label: 'Get execution', tool: workflow.getExecution },
  ],
});
