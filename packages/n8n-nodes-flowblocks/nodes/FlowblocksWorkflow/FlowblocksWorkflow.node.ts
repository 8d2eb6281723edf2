// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { executeOf } from '../../lib/flowblocks';

export class FlowblocksWorkflow implements INodeType {
	description: INodeTypeDescription = {
		displayName: "Workflow (flowblocks)",
		name: "flowblocksWorkflow",
		icon: {
			light: "file:flowblocksWorkflow.svg",
			dark: "file:flowblocksWorkflow.dark.svg",
		},
		group: [
			"transform",
		],
		version: 1,
		subtitle: "={{ ({\"execute\":\"Execute workflow\",\"getJob\":\"Get job\",\"listLogs\":\"List logs\",\"getLog\":\"Get log\",\"getExecution\":\"Get execution\"})[$parameter[\"operation\"]] }}",
		description: "Call another deployed Sim workflow (and wait for it, or start it in the background and watch its job) and read its execution logs, through Sim's external API (any platform serving the same execution and log API works too).",
		defaults: {
			name: "Workflow",
		},
		inputs: [
			NodeConnectionTypes.Main,
		],
		outputs: [
			NodeConnectionTypes.Main,
		],
		usableAsTool: true,
		credentials: [
			{
				name: "flowblocksWorkflowApi",
				required: true,
			},
		],
		properties: [
			{
				displayName: "Resource",
				name: "resource",
				type: "options",
				noDataExpression: true,
				default: "execution",
				options: [
					{
						name: "Execution",
						value: "execution",
					},
					{
						name: "Log",
						value: "log",
					},
				],
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "execute",
				options: [
					{
						name: "Execute Workflow",
						value: "execute",
						description: "Run a deployed workflow with inputs",
						action: "Execute workflow",
					},
					{
						name: "Get",
						value: "getExecution",
						description: "Read the workflow state snapshot of one execution (its blocks, edges, loops and parallels) with its metadata: trigger, start and end times, duration and cost",
						action: "Get execution",
					},
					{
						name: "Get Job",
						value: "getJob",
						description: "Read the status of an asynchronous workflow execution by its taskId: queued, processing, completed (with the workflow output) or failed (with the error)",
						action: "Get job",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"execution",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "listLogs",
				options: [
					{
						name: "Get",
						value: "getLog",
						description: "Read one execution log by its ID: the run (workflow, level, trigger, times, duration), its execution data (trace spans, final output), its cost (total, tokens, per model) and the current limits",
						action: "Get log",
					},
					{
						name: "Get Many",
						value: "listLogs",
						description: "List execution logs of a workspace, filtered by workflows, folders, triggers, level, time range, execution ID, duration, cost or model, one page at a time (limit, default 100) with a cursor",
						action: "Get many logs",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"log",
						],
					},
				},
			},
			{
				displayName: "Workflow ID",
				name: "workflowId",
				type: "resourceLocator",
				default: {
					mode: "id",
					value: "",
				},
				displayOptions: {
					show: {
						operation: [
							"execute",
						],
					},
				},
				required: true,
				description: "ID of the deployed workflow to run",
				modes: [
					{
						displayName: "By ID",
						name: "id",
						type: "string",
						placeholder: "e.g. cm1a2b3c4d",
					},
					{
						displayName: "By URL",
						name: "url",
						type: "string",
						placeholder: "e.g. https://www.sim.ai/workspace/ws_1/w/wf_1",
						validation: [
							{
								type: "regex",
								properties: {
									regex: "https?://[^/?#]+/workspace/[^/?#]+/w/([^/?#]+)(?:[/?#].*)?",
									errorMessage: "Paste the URL of its page, like https://www.sim.ai/workspace/ws_1/w/wf_1",
								},
							},
						],
						extractValue: {
							type: "regex",
							regex: "https?://[^/?#]+/workspace/[^/?#]+/w/([^/?#]+)",
						},
					},
				],
			},
			{
				displayName: "Inputs",
				name: "inputs",
				type: "json",
				default: "{}",
				displayOptions: {
					show: {
						operation: [
							"execute",
						],
					},
				},
				description: "Workflow inputs as a JSON object",
				placeholder: "{\"customerId\": \"c_123\"}",
			},
			{
				displayName: "Async",
				name: "async",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"execute",
						],
					},
				},
				description: "Whether to run in the background: return a taskId at once instead of the result",
			},
			{
				displayName: "Input Style",
				name: "inputStyle",
				type: "options",
				default: "spec",
				displayOptions: {
					show: {
						operation: [
							"execute",
						],
					},
				},
				options: [
					{
						name: "Flat",
						value: "flat",
					},
					{
						name: "Spec",
						value: "spec",
					},
				],
				description: "How the body carries the inputs: spec sends {\"inputs\": {...}}, as the platform's API reference writes it; flat sends the inputs as the whole body, as a Sim deployment reads it (async then travels in the X-Execution-Mode header only; Sim honours X-Execution-ID, so a run that ends ambiguously is retried with the same ID and cannot start twice)",
			},
			{
				displayName: "Wait for Completion",
				name: "waitForCompletion",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"execute",
							"getJob",
						],
					},
				},
				description: "Whether to poll the job until it is completed or failed (or cancelled) and return the final job record",
			},
			{
				displayName: "Timeout Seconds",
				name: "timeoutSeconds",
				type: "number",
				default: 300,
				displayOptions: {
					show: {
						operation: [
							"execute",
							"getJob",
						],
					},
				},
				description: "With waitForCompletion: give up after this many seconds in all (the job keeps running)",
			},
			{
				displayName: "Poll Interval Seconds",
				name: "pollIntervalSeconds",
				type: "number",
				default: 1,
				displayOptions: {
					show: {
						operation: [
							"execute",
							"getJob",
						],
					},
				},
				description: "With waitForCompletion: the first wait between polls; later waits grow by half, up to 10 s",
			},
			{
				displayName: "Task ID",
				name: "taskId",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"getJob",
						],
					},
				},
				required: true,
				description: "TaskId returned by an asynchronous execute",
			},
			{
				displayName: "Workspace ID",
				name: "workspaceId",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
				required: true,
			},
			{
				displayName: "Execution ID",
				name: "executionId",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"getExecution",
						],
					},
				},
				required: true,
				description: "Exact execution ID",
			},
			{
				displayName: "Order",
				name: "order",
				type: "options",
				default: "desc",
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
				options: [
					{
						name: "Asc",
						value: "asc",
					},
					{
						name: "Desc",
						value: "desc",
					},
				],
				description: "By start time: desc (newest first) or asc",
			},
			{
				displayName: "Details",
				name: "details",
				type: "options",
				default: "basic",
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
				options: [
					{
						name: "Basic",
						value: "basic",
					},
					{
						name: "Full",
						value: "full",
					},
				],
				description: "Basic, or full (workflow, and the included extras)",
			},
			{
				displayName: "Include Trace Spans",
				name: "includeTraceSpans",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
				description: "Whether to add trace spans (deployments honour it with details full)",
			},
			{
				displayName: "Include Final Output",
				name: "includeFinalOutput",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
				description: "Whether to add the final output (deployments honour it with details full)",
			},
			{
				displayName: "Follow Cursor",
				name: "followCursor",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
				description: "Whether to keep fetching pages and return their entries together",
			},
			{
				displayName: "Max Pages",
				name: "maxPages",
				type: "number",
				default: 10,
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
				description: "With followCursor: stop after this many pages",
			},
			{
				displayName: "ID",
				name: "id",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"getLog",
						],
					},
				},
				required: true,
				description: "Log ID, from List logs or a completion notification",
			},
			{
				displayName: "Return All",
				name: "returnAll",
				type: "boolean",
				default: false,
				description: "Whether to return all results or only up to a given limit",
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
			},
			{
				displayName: "Limit",
				name: "limit",
				type: "number",
				typeOptions: {
					minValue: 1,
				},
				default: 50,
				description: "Max number of results to return",
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
						returnAll: [
							false,
						],
					},
				},
			},
			{
				displayName: "Additional Fields",
				name: "additionalFields",
				type: "collection",
				placeholder: "Add Field",
				default: {},
				displayOptions: {
					show: {
						operation: [
							"listLogs",
						],
					},
				},
				options: [
					{
						displayName: "End Date",
						name: "endDate",
						type: "string",
						default: "",
						description: "ISO time: runs started at or before it",
					},
					{
						displayName: "Execution ID",
						name: "executionId",
						type: "string",
						default: "",
						description: "Exact execution ID",
					},
					{
						displayName: "Folder IDs",
						name: "folderIds",
						type: "json",
						default: "",
						description: "Only workflows in these folders",
					},
					{
						displayName: "Level",
						name: "level",
						type: "options",
						default: "info",
						options: [
							{
								name: "Error",
								value: "error",
							},
							{
								name: "Info",
								value: "info",
							},
						],
						description: "Only this level",
					},
					{
						displayName: "Max Cost",
						name: "maxCost",
						type: "number",
						default: 0,
						description: "Highest execution cost",
					},
					{
						displayName: "Max Duration (Ms)",
						name: "maxDurationMs",
						type: "number",
						default: 0,
						description: "Longest run, in milliseconds",
					},
					{
						displayName: "Max Entries",
						name: "maxEntries",
						type: "number",
						default: 0,
						description: "With followCursor: stop after this many entries",
					},
					{
						displayName: "Min Cost",
						name: "minCost",
						type: "number",
						default: 0,
						description: "Lowest execution cost",
					},
					{
						displayName: "Min Duration (Ms)",
						name: "minDurationMs",
						type: "number",
						default: 0,
						description: "Shortest run, in milliseconds",
					},
					{
						displayName: "Model",
						name: "model",
						type: "string",
						default: "",
						description: "Only runs that used this AI model",
					},
					{
						displayName: "Start Date",
						name: "startDate",
						type: "string",
						default: "",
						description: "ISO time: runs started at or after it",
					},
					{
						displayName: "Triggers",
						name: "triggers",
						type: "json",
						default: "",
						description: "Only these triggers: api, webhook, schedule, manual, chat",
					},
					{
						displayName: "Workflow IDs",
						name: "workflowIds",
						type: "json",
						default: "",
						description: "Only these workflows",
					},
				],
			},
		],
		documentationUrl: "https://docs.sim.ai/execution/api",
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Each item through the flowblocks harness: validated params, retries, pacing, secrets masked.
		return await executeOf("workflow").call(this);
	}
}
