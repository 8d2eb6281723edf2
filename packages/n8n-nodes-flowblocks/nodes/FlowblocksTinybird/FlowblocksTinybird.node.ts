// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { executeOf, methodsOf } from '../../lib/flowblocks';

export class FlowblocksTinybird implements INodeType {
	description: INodeTypeDescription = {
		displayName: "Tinybird (flowblocks)",
		name: "flowblocksTinybird",
		icon: {
			light: "file:flowblocksTinybird.svg",
			dark: "file:flowblocksTinybird.dark.svg",
		},
		group: [
			"transform",
		],
		version: 1,
		subtitle: "={{ ({\"events\":\"Send events\",\"query\":\"Run SQL query\",\"queryPipe\":\"Call a pipe endpoint\",\"appendDatasource\":\"Append from URL\",\"appendData\":\"Append data\",\"truncateDatasource\":\"Truncate Data Source\",\"deleteDatasourceRows\":\"Delete rows by condition\",\"getJob\":\"Get job\",\"listDatasources\":\"List Data Sources\",\"getDatasource\":\"Get Data Source\",\"listPipes\":\"List pipes\",\"getPipe\":\"Get pipe\",\"listJobs\":\"List jobs\",\"cancelJob\":\"Cancel job\",\"createToken\":\"Create token\"})[$parameter[\"operation\"]] }}",
		description: "Ingest events, run SQL, call pipe endpoints, read the workspace's schema and jobs, and maintain Data Sources in Tinybird.",
		defaults: {
			name: "Tinybird",
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
				name: "flowblocksTinybirdApi",
				required: true,
			},
		],
		properties: [
			{
				displayName: "Resource",
				name: "resource",
				type: "options",
				noDataExpression: true,
				default: "dataSource",
				options: [
					{
						name: "Data Source",
						value: "dataSource",
					},
					{
						name: "Job",
						value: "job",
					},
					{
						name: "Pipe",
						value: "pipe",
					},
					{
						name: "Query",
						value: "query",
					},
					{
						name: "Token",
						value: "token",
					},
				],
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "events",
				options: [
					{
						name: "Append Data",
						value: "appendData",
						description: "Append CSV or NDJSON rows sent in the request (multipart, as the Data Sources API takes a file) to an existing Tinybird Data Source, and get the import ID, invalid lines and quarantined rows back",
						action: "Append data",
					},
					{
						name: "Append From URL",
						value: "appendDatasource",
						description: "Append rows to an existing Tinybird Data Source from a file at an http(s) URL (CSV, NDJSON or Parquet)",
						action: "Append from URL",
					},
					{
						name: "Delete Rows by Condition",
						value: "deleteDatasourceRows",
						description: "Delete the rows of a Tinybird Data Source that match a SQL WHERE condition",
						action: "Delete rows by condition",
					},
					{
						name: "Get",
						value: "getDatasource",
						description: "Describe one Tinybird Data Source: its columns (name, ClickHouse type, nullable, default), engine and sorting key, and its row count and size",
						action: "Get data source",
					},
					{
						name: "Get Many",
						value: "listDatasources",
						description: "List the Data Sources of the Tinybird workspace with their columns (name and ClickHouse type), engine and row count",
						action: "Get many data sources",
					},
					{
						name: "Send Events",
						value: "events",
						description: "Ingest events into a Tinybird Data Source through the Events API, as NDJSON (one JSON object per line) or JSON (an object or an array of objects), optionally gzip-compressed",
						action: "Send events",
					},
					{
						name: "Truncate",
						value: "truncateDatasource",
						description: "Delete every row of a Tinybird Data Source (its quarantine table too, when named)",
						action: "Truncate data source",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"dataSource",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "query",
				options: [
					{
						name: "Run SQL",
						value: "query",
						description: "Run a read-only SQL query against Tinybird Data Sources and pipes",
						action: "Run SQL query",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"query",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "queryPipe",
				options: [
					{
						name: "Call an Endpoint",
						value: "queryPipe",
						description: "Call a published Tinybird pipe endpoint by name with its dynamic parameters and get JSON rows back",
						action: "Call a pipe endpoint",
					},
					{
						name: "Get",
						value: "getPipe",
						description: "Describe one Tinybird pipe: its nodes and their SQL, which node is the published endpoint, and the endpoint's dynamic parameters with their types and defaults (as `parameters`), so tinybird_query_pipe can be called with the right ones",
						action: "Get pipe",
					},
					{
						name: "Get Many",
						value: "listPipes",
						description: "List the pipes of the Tinybird workspace with their type (endpoint or not), description and nodes",
						action: "Get many pipes",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"pipe",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "getJob",
				options: [
					{
						name: "Cancel",
						value: "cancelJob",
						description: "Cancel a Tinybird job (an append import, a delete, a populate) that has not finished: it moves to cancelling, then cancelled",
						action: "Cancel job",
					},
					{
						name: "Get",
						value: "getJob",
						description: "Read the status of a Tinybird job (an append import or a delete): waiting, working, done, error, cancelling or cancelled",
						action: "Get job",
					},
					{
						name: "Get Many",
						value: "listJobs",
						description: "List the Tinybird workspace's jobs of the last 48 hours (the last 100), newest last, filtered by kind (import, delete_data, populateview, copy, …), status (waiting, working, done, error, cancelling, cancelled), pipe and creation time",
						action: "Get many jobs",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"job",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "createToken",
				options: [
					{
						name: "Create",
						value: "createToken",
						description: "Create a scoped Tinybird token for a resource",
						action: "Create token",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"token",
						],
					},
				},
			},
			{
				displayName: "Data Source",
				name: "datasource",
				type: "resourceLocator",
				default: {
					mode: "list",
					value: "",
				},
				displayOptions: {
					show: {
						operation: [
							"events",
							"appendDatasource",
							"appendData",
							"truncateDatasource",
							"deleteDatasourceRows",
							"getDatasource",
						],
					},
				},
				required: true,
				description: "Target Data Source name",
				modes: [
					{
						displayName: "From List",
						name: "list",
						type: "list",
						placeholder: "Select a Data Source...",
						typeOptions: {
							searchListMethod: "searchDatasource",
							searchable: true,
						},
					},
					{
						displayName: "By Name",
						name: "name",
						type: "string",
						placeholder: "e.g. events",
					},
				],
			},
			{
				displayName: "Data",
				name: "data",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"events",
							"appendData",
						],
					},
				},
				typeOptions: {
					rows: 5,
				},
				required: true,
				description: "Events as NDJSON text or JSON text; each event a JSON object",
				placeholder: "{\"timestamp\":\"2026-01-01 00:00:00\",\"event\":\"signup\"}",
			},
			{
				displayName: "Wait",
				name: "wait",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"events",
						],
					},
				},
				description: "Whether to wait for the database acknowledgment before responding: safer retries, more latency",
			},
			{
				displayName: "Format",
				name: "format",
				type: "options",
				default: "ndjson",
				displayOptions: {
					show: {
						operation: [
							"events",
						],
					},
				},
				options: [
					{
						name: "Json",
						value: "json",
					},
					{
						name: "Ndjson",
						value: "ndjson",
					},
				],
				description: "Format of data",
			},
			{
				displayName: "Compression",
				name: "compression",
				type: "options",
				default: "none",
				displayOptions: {
					show: {
						operation: [
							"events",
						],
					},
				},
				options: [
					{
						name: "Gzip",
						value: "gzip",
					},
					{
						name: "None",
						value: "none",
					},
				],
				description: "Gzip the request body",
			},
			{
				displayName: "Max Request Bytes",
				name: "maxRequestBytes",
				type: "number",
				default: 10000000,
				displayOptions: {
					show: {
						operation: [
							"events",
						],
					},
				},
				description: "Largest request body; larger data is split at line boundaries (the Free plan refuses over 10 MB)",
			},
			{
				displayName: "Concurrency",
				name: "concurrency",
				type: "number",
				default: 2,
				displayOptions: {
					show: {
						operation: [
							"events",
						],
					},
				},
				description: "Requests in flight at once when data is split (the service takes 20 MB/s per Data Source)",
			},
			{
				displayName: "On Ambiguous",
				name: "onAmbiguous",
				type: "options",
				default: "stop",
				displayOptions: {
					show: {
						operation: [
							"events",
						],
					},
				},
				options: [
					{
						name: "Retry",
						value: "retry",
					},
					{
						name: "Stop",
						value: "stop",
					},
				],
				description: "After a fault that leaves the outcome unknown (a cut connection, a time-out): stop and report the rows as unknown, or retry (the rows may then land twice)",
			},
			{
				displayName: "Query",
				name: "query",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"query",
						],
					},
				},
				typeOptions: {
					editor: "sqlEditor",
					rows: 6,
				},
				required: true,
				description: "SQL; a trailing FORMAT clause picks the output format (JSON, CSV, TSV, JSONEachRow, …)",
				placeholder: "SELECT count() FROM events FORMAT JSON",
			},
			{
				displayName: "Pipe",
				name: "pipe",
				type: "resourceLocator",
				default: {
					mode: "list",
					value: "",
				},
				displayOptions: {
					show: {
						operation: [
							"queryPipe",
							"getPipe",
						],
					},
				},
				required: true,
				description: "Name of the published pipe endpoint",
				modes: [
					{
						displayName: "From List",
						name: "list",
						type: "list",
						placeholder: "Select a Pipe...",
						typeOptions: {
							searchListMethod: "searchPipe",
							searchable: true,
						},
					},
					{
						displayName: "By Name",
						name: "name",
						type: "string",
						placeholder: "e.g. events",
					},
				],
			},
			{
				displayName: "URL",
				name: "url",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"appendDatasource",
						],
					},
				},
				required: true,
				description: "Publicly accessible file URL (http or https)",
			},
			{
				displayName: "Format",
				name: "appendDatasourceFormat",
				type: "options",
				default: "csv",
				displayOptions: {
					show: {
						operation: [
							"appendDatasource",
						],
					},
				},
				options: [
					{
						name: "Csv",
						value: "csv",
					},
					{
						name: "Ndjson",
						value: "ndjson",
					},
					{
						name: "Parquet",
						value: "parquet",
					},
				],
				description: "File format",
			},
			{
				displayName: "Format",
				name: "appendDataFormat",
				type: "options",
				default: "csv",
				displayOptions: {
					show: {
						operation: [
							"appendData",
						],
					},
				},
				options: [
					{
						name: "Csv",
						value: "csv",
					},
					{
						name: "Ndjson",
						value: "ndjson",
					},
				],
				description: "Format of data",
			},
			{
				displayName: "Delete Condition",
				name: "deleteCondition",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"deleteDatasourceRows",
						],
					},
				},
				typeOptions: {
					editor: "sqlEditor",
					rows: 6,
				},
				required: true,
				description: "SQL WHERE-clause condition selecting the rows",
				placeholder: "event = 'test'",
			},
			{
				displayName: "Dry Run",
				name: "dryRun",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"deleteDatasourceRows",
						],
					},
				},
				description: "Whether to only count the rows that would be deleted",
			},
			{
				displayName: "Job ID",
				name: "jobId",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"getJob",
							"cancelJob",
						],
					},
				},
				required: true,
				description: "Job ID from an append or delete",
			},
			{
				displayName: "Wait for Completion",
				name: "waitForCompletion",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"getJob",
						],
					},
				},
				description: "Whether to poll until the job is done, error or cancelled",
			},
			{
				displayName: "Timeout Seconds",
				name: "timeoutSeconds",
				type: "number",
				default: 300,
				displayOptions: {
					show: {
						operation: [
							"getJob",
						],
					},
				},
				description: "With wait_for_completion: give up after this many seconds",
			},
			{
				displayName: "Name",
				name: "name",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"createToken",
						],
					},
				},
				required: true,
				description: "Token name",
			},
			{
				displayName: "Kind",
				name: "createTokenKind",
				type: "options",
				default: "static",
				displayOptions: {
					show: {
						operation: [
							"createToken",
						],
					},
				},
				options: [
					{
						name: "Jwt",
						value: "jwt",
					},
					{
						name: "Static",
						value: "static",
					},
				],
				description: "Static (kept by the workspace) or jwt (signed, expires)",
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
							"listDatasources",
							"listPipes",
							"listJobs",
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
							"listDatasources",
							"listPipes",
							"listJobs",
						],
						returnAll: [
							false,
						],
					},
				},
			},
			{
				displayName: "Simplify",
				name: "simplify",
				type: "boolean",
				default: true,
				description: "Whether to return a simplified version of the response instead of the raw data",
				displayOptions: {
					show: {
						operation: [
							"listJobs",
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
							"query",
						],
					},
				},
				options: [
					{
						displayName: "Pipeline",
						name: "pipeline",
						type: "string",
						default: "",
						description: "Pipe name; lets the SQL say SELECT * FROM _",
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
							"queryPipe",
						],
					},
				},
				options: [
					{
						displayName: "Parameters",
						name: "parameters",
						type: "json",
						default: "",
						description: "Dynamic pipe parameters, sent as query-string arguments (arrays as repeated keys)",
						placeholder: "{\"start_date\":\"2026-01-01\",\"limit\":10}",
					},
					{
						displayName: "SQL",
						name: "q",
						type: "string",
						default: "",
						typeOptions: {
							editor: "sqlEditor",
							rows: 6,
						},
						description: "SQL run on top of the pipe result; `_` references the pipe",
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
							"appendData",
						],
					},
				},
				options: [
					{
						displayName: "Dialect Delimiter",
						name: "dialectDelimiter",
						type: "string",
						default: "",
						description: "CSV field delimiter (one character, default ,)",
					},
					{
						displayName: "Dialect Escapechar",
						name: "dialectEscapechar",
						type: "string",
						default: "",
						description: "CSV escape character (one character)",
					},
					{
						displayName: "Dialect New Line",
						name: "dialectNewLine",
						type: "string",
						default: "",
						description: "CSV line separator (e.g. \\n or \\r\\n)",
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
							"listJobs",
						],
					},
				},
				options: [
					{
						displayName: "Created After",
						name: "createdAfter",
						type: "string",
						default: "",
						description: "Only jobs created after this ISO 8601 time",
					},
					{
						displayName: "Created Before",
						name: "createdBefore",
						type: "string",
						default: "",
						description: "Only jobs created before this ISO 8601 time",
					},
					{
						displayName: "Kind",
						name: "kind",
						type: "string",
						default: "",
						description: "Job kind: import, delete_data, populateview, copy, sink, …",
					},
					{
						displayName: "Pipe ID",
						name: "pipeId",
						type: "string",
						default: "",
						description: "Only jobs of this pipe (by ID)",
					},
					{
						displayName: "Pipe Name",
						name: "pipeName",
						type: "string",
						default: "",
						description: "Only jobs of this pipe (by name)",
					},
					{
						displayName: "Status",
						name: "status",
						type: "options",
						default: "waiting",
						options: [
							{
								name: "Cancelled",
								value: "cancelled",
							},
							{
								name: "Cancelling",
								value: "cancelling",
							},
							{
								name: "Done",
								value: "done",
							},
							{
								name: "Error",
								value: "error",
							},
							{
								name: "Waiting",
								value: "waiting",
							},
							{
								name: "Working",
								value: "working",
							},
						],
						description: "Job status",
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
							"createToken",
						],
					},
				},
				options: [
					{
						displayName: "Expires At",
						name: "expiresAt",
						type: "number",
						default: 0,
						description: "Kind jwt: expiry as Unix time in seconds",
					},
					{
						displayName: "Jwt Scopes",
						name: "jwtScopes",
						type: "json",
						default: "",
						description: "Kind jwt: scopes with their resource and fixed params",
					},
					{
						displayName: "Rps",
						name: "rps",
						type: "number",
						default: 0,
						description: "Kind jwt: requests per second allowed with the token",
					},
					{
						displayName: "Scopes",
						name: "scopes",
						type: "json",
						default: "",
						description: "Kind static: scope strings",
					},
				],
			},
		],
		documentationUrl: "https://www.tinybird.co/docs/api-reference",
	};

	methods = {
		listSearch: {
			searchDatasource: methodsOf("tinybird").listSearch!.searchDatasource!,
			searchPipe: methodsOf("tinybird").listSearch!.searchPipe!,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Each item through the flowblocks harness: validated params, retries, pacing, secrets masked.
		return await executeOf("tinybird").call(this);
	}
}
