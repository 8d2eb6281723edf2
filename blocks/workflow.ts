import { defineBlock } from '../src/blocks/define-block.js';
import { lineIcon } from '../src/blocks/line-icon.js';
import * as workflow from '../tools/workflow/index.js';

export default defineBlock({
  type: 'workflow',
  name: 'Workflow',
  description:
    "Call another deployed workflow (and wait for it, or start it in the background and watch its job) and read the platform's execution logs.",
  color: '#6F3DFA',
  // Three steps joined by curved edges. Drawn for flowblocks on a 24×24 grid.
  icon: lineIcon(
    '<rect x="2.5" y="3" width="7.5" height="6" rx="1.5"/>',
    '<rect x="14" y="9" width="7.5" height="6" rx="1.5"/>',
    '<rect x="2.5" y="15" width="7.5" height="6" rx="1.5"/>',
    '<path d="M10 6c2.6 0 1.4 6 4 6"/>',
    '<path d="M14 12c-2.6 0-1.4 6-4 6"/>',
  ),
  operations: [
    { id: 'execute', label: 'Execute workflow', tool: workflow.execute },
    { id: 'get_job', label: 'Get job', tool: workflow.getJob },
    { id: 'list_logs', label: 'List logs', tool: workflow.listLogs },
    { id: 'get_log', label: 'Get log', tool: workflow.getLog },
    { id: 'get_execution', label: 'Get execution', tool: workflow.getExecution },
  ],
});
