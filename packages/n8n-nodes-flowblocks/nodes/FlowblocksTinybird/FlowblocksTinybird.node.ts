// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { executeOf } from '../../dist/flowblocks.js';

export class FlowblocksTinybird implements INodeType {
	description: INodeTypeDescription = {
		displayName: "Tinybird (flowblocks)",
		name: "flowblocksTinybird",
		icon: "file:flowblocksTinybird.svg",
		group: [
			"transform",
		],
		version: 1,
		subtitle: "={{ ({\"events\":\"Send events\",\"query\":\"Run SQL query\",\"query_pipe\":\"Call a pipe endpoint\",\"append_datasource\":\"Append from URL\",\"append_data\":\"Append data\",\"truncate_datasource\":\"Truncate Data Source\",\"delete_datasource_rows\":\"Delete rows by condition\",\"get_job\":\"Get job\",\"list_datasources\":\"List Data Sources\",\"get_datasource\":\"Get Data Source\",\"list_pipes\":\"List pipes\",\"get_pipe\":\"Get pipe\",\"list_jobs\":\"List jobs\",\"cancel_job\":\"Cancel job\",\"create_token\":\"Create token\",\"api_call\":\"Custom API call\"})[$parameter[\"operation\"]] }}",
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
						name: "API",
						value: "api",
					},
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
						value: "append_data",
						description: "Append CSV or NDJSON rows sent in the request (multipart, as the Data Sources API takes a file) to an existing Tinybird Data Source, and get the import ID, invalid lines and quarantined rows back",
						action: "Append data",
					},
					{
						name: "Append From URL",
						value: "append_datasource",
						description: "Append rows to an existing Tinybird Data Source from a file at an http(s) URL (CSV, NDJSON or Parquet)",
						action: "Append from URL",
					},
					{
						name: "Delete Rows by Condition",
						value: "delete_datasource_rows",
						description: "Delete the rows of a Tinybird Data Source that match a SQL WHERE condition",
						action: "Delete rows by condition",
					},
					{
						name: "Get Data Source",
						value: "get_datasource",
						description: "Describe one Tinybird Data Source: its columns (name, ClickHouse type, nullable, default), engine and sorting key, and its row count and size",
						action: "Get data source",
					},
					{
						name: "List Data Sources",
						value: "list_datasources",
						description: "List the Data Sources of the Tinybird workspace with their columns (name and ClickHouse type), engine and row count",
						action: "List data sources",
					},
					{
						name: "Send Events",
						value: "events",
						description: "Ingest events into a Tinybird Data Source through the Events API, as NDJSON (one JSON object per line) or JSON (an object or an array of objects), optionally gzip-compressed",
						action: "Send events",
					},
					{
						name: "Truncate Data Source",
						value: "truncate_datasource",
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
						name: "Run SQL Query",
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
				default: "query_pipe",
				options: [
					{
						name: "Call a Pipe Endpoint",
						value: "query_pipe",
						description: "Call a published Tinybird pipe endpoint by name with its dynamic parameters and get JSON rows back",
						action: "Call a pipe endpoint",
					},
					{
						name: "Get Pipe",
						value: "get_pipe",
						description: "Describe one Tinybird pipe: its nodes and their SQL, which node is the published endpoint, and the endpoint's dynamic parameters with their types and defaults (as `parameters`), so tinybird_query_pipe can be called with the right ones",
						action: "Get pipe",
					},
					{
						name: "List Pipes",
						value: "list_pipes",
						description: "List the pipes of the Tinybird workspace with their type (endpoint or not), description and nodes",
						action: "List pipes",
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
				default: "get_job",
				options: [
					{
						name: "Cancel Job",
						value: "cancel_job",
						description: "Cancel a Tinybird job (an append import, a delete, a populate) that has not finished: it moves to cancelling, then cancelled",
						action: "Cancel job",
					},
					{
						name: "Get Job",
						value: "get_job",
						description: "Read the status of a Tinybird job (an append import or a delete): waiting, working, done, error, cancelling or cancelled",
						action: "Get job",
					},
					{
						name: "List Jobs",
						value: "list_jobs",
						description: "List the Tinybird workspace's jobs of the last 48 hours (the last 100), newest last, filtered by kind (import, delete_data, populateview, copy, …), status (waiting, working, done, error, cancelling, cancelled), pipe and creation time",
						action: "List jobs",
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
				default: "create_token",
				options: [
					{
						name: "Create Token",
						value: "create_token",
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
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "api_call",
				options: [
					{
						name: "Custom API Call",
						value: "api_call",
						description: "Send one request to an endpoint no other tinybird tool covers, with the configured credential: the path is under base_url (the workspace region, e.g",
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
				displayName: "Data Source",
				name: "datasource",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"events",
							"append_datasource",
							"append_data",
							"truncate_datasource",
							"delete_datasource_rows",
							"get_datasource",
						],
					},
				},
				required: true,
				description: "Target Data Source name",
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
							"append_data",
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
				name: "max_request_bytes",
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
				name: "on_ambiguous",
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
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"query_pipe",
							"get_pipe",
						],
					},
				},
				required: true,
				description: "Name of the published pipe endpoint",
			},
			{
				displayName: "URL",
				name: "url",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"append_datasource",
						],
					},
				},
				required: true,
				description: "Publicly accessible file URL (http or https)",
			},
			{
				displayName: "Format",
				name: "append_datasource_format",
				type: "options",
				default: "csv",
				displayOptions: {
					show: {
						operation: [
							"append_datasource",
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
				name: "append_data_format",
				type: "options",
				default: "csv",
				displayOptions: {
					show: {
						operation: [
							"append_data",
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
				name: "delete_condition",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"delete_datasource_rows",
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
				name: "dry_run",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"delete_datasource_rows",
						],
					},
				},
				description: "Whether to only count the rows that would be deleted",
			},
			{
				displayName: "Job ID",
				name: "job_id",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"get_job",
							"cancel_job",
						],
					},
				},
				required: true,
				description: "Job ID from an append or delete",
			},
			{
				displayName: "Wait for Completion",
				name: "wait_for_completion",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"get_job",
						],
					},
				},
				description: "Whether to poll until the job is done, error or cancelled",
			},
			{
				displayName: "Timeout Seconds",
				name: "timeout_seconds",
				type: "number",
				default: 300,
				displayOptions: {
					show: {
						operation: [
							"get_job",
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
							"create_token",
						],
					},
				},
				required: true,
				description: "Token name",
			},
			{
				displayName: "Kind",
				name: "create_token_kind",
				type: "options",
				default: "static",
				displayOptions: {
					show: {
						operation: [
							"create_token",
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
							"list_datasources",
							"list_pipes",
							"list_jobs",
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
							"list_datasources",
							"list_pipes",
							"list_jobs",
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
							"list_jobs",
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
							"query_pipe",
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
							"append_data",
						],
					},
				},
				options: [
					{
						displayName: "Dialect Delimiter",
						name: "dialect_delimiter",
						type: "string",
						default: "",
						description: "CSV field delimiter (one character, default ,)",
					},
					{
						displayName: "Dialect Escapechar",
						name: "dialect_escapechar",
						type: "string",
						default: "",
						description: "CSV escape character (one character)",
					},
					{
						displayName: "Dialect New Line",
						name: "dialect_new_line",
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
							"list_jobs",
						],
					},
				},
				options: [
					{
						displayName: "Created After",
						name: "created_after",
						type: "string",
						default: "",
						description: "Only jobs created after this ISO 8601 time",
					},
					{
						displayName: "Created Before",
						name: "created_before",
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
						name: "pipe_id",
						type: "string",
						default: "",
						description: "Only jobs of this pipe (by ID)",
					},
					{
						displayName: "Pipe Name",
						name: "pipe_name",
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
							"create_token",
						],
					},
				},
				options: [
					{
						displayName: "Expires At",
						name: "expires_at",
						type: "number",
						default: 0,
						description: "Kind jwt: expiry as Unix time in seconds",
					},
					{
						displayName: "Jwt Scopes",
						name: "jwt_scopes",
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
						name: "api_call_query",
						type: "json",
						default: "",
						description: "Query-string parameters (arrays as repeated keys); never the credential",
					},
				],
			},
		],
		documentationUrl: "https://www.tinybird.co/docs/api-reference",
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Each item through the flowblocks harness: validated params, retries, pacing, secrets masked.
		return await executeOf("tinybird").call(this);
	}
}
