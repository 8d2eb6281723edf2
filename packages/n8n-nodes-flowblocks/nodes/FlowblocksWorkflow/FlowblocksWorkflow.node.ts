// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { executeOf } from '../../dist/flowblocks.js';

export class FlowblocksWorkflow implements INodeType {
	description: INodeTypeDescription = {
		displayName: "Workflow (flowblocks)",
		name: "flowblocksWorkflow",
		icon: "file:flowblocksWorkflow.svg",
		group: [
			"transform",
		],
		version: 1,
		subtitle: "={{ ({\"execute\":\"Execute workflow\",\"get_job\":\"Get job\",\"list_logs\":\"List logs\",\"get_log\":\"Get log\",\"get_execution\":\"Get execution\",\"api_call\":\"Custom API call\"})[$parameter[\"operation\"]] }}",
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
						name: "API",
						value: "api",
					},
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
						name: "Get Execution",
						value: "get_execution",
						description: "Read the workflow state snapshot of one execution (its blocks, edges, loops and parallels) with its metadata: trigger, start and end times, duration and cost",
						action: "Get execution",
					},
					{
						name: "Get Job",
						value: "get_job",
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
				default: "list_logs",
				options: [
					{
						name: "Get Log",
						value: "get_log",
						description: "Read one execution log by its ID: the run (workflow, level, trigger, times, duration), its execution data (trace spans, final output), its cost (total, tokens, per model) and the current limits",
						action: "Get log",
					},
					{
						name: "List Logs",
						value: "list_logs",
						description: "List execution logs of a workspace, filtered by workflows, folders, triggers, level, time range, execution ID, duration, cost or model, one page at a time (limit, default 100) with a cursor",
						action: "List logs",
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
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "api_call",
				options: [
					{
						name: "Custom API Call",
						value: "api_call",
						description: "Send one request to an endpoint no other workflow tool covers, with the configured credential: the path is under base_url (e.g",
						action: "Custom API call",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"api",
						],
					},
				},
			},
			{
				displayName: "Workflow ID",
				name: "workflowId",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"execute",
						],
					},
				},
				required: true,
				description: "ID of the deployed workflow to run",
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
							"get_job",
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
							"get_job",
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
							"get_job",
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
							"get_job",
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
							"list_logs",
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
							"get_execution",
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
							"list_logs",
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
							"list_logs",
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
							"list_logs",
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
							"list_logs",
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
							"list_logs",
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
							"list_logs",
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
							"get_log",
						],
					},
				},
				required: true,
				description: "Log ID, from List logs or a completion notification",
			},
			{
				displayName: "Method",
				name: "method",
				type: "options",
				default: "GET",
				displayOptions: {
					show: {
						operation: [
							"api_call",
						],
					},
				},
				options: [
					{
						name: "DELETE",
						value: "DELETE",
					},
					{
						name: "GET",
						value: "GET",
					},
					{
						name: "PATCH",
						value: "PATCH",
					},
					{
						name: "POST",
						value: "POST",
					},
					{
						name: "PUT",
						value: "PUT",
					},
				],
				description: "HTTP method",
			},
			{
				displayName: "Path",
				name: "path",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"api_call",
						],
					},
				},
				required: true,
				description: "Path under the service's base URL, starting with /",
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
							"list_logs",
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
							"list_logs",
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
							"list_logs",
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
			{
				displayName: "Additional Fields",
				name: "additionalFields",
				type: "collection",
				placeholder: "Add Field",
				default: {},
				displayOptions: {
					show: {
						operation: [
							"api_call",
						],
					},
				},
				options: [
					{
						displayName: "Body",
						name: "body",
						type: "json",
						default: "",
						description: "JSON body (POST, PUT, PATCH, DELETE)",
					},
					{
						displayName: "Headers",
						name: "headers",
						type: "json",
						default: "",
						description: "Extra request headers, only these: Accept, Accept-Language, Content-Type, Cache-Control, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, X-Request-ID, traceparent, tracestate (a JSON type); never the credential, Range or Accept-Encoding",
					},
					{
						displayName: "Query",
						name: "query",
						type: "json",
						default: "",
						description: "Query-string parameters (arrays as repeated keys); never the credential",
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
