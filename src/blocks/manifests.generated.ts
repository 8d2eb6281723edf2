// Written by `npm run docs` (scripts/generate-docs.ts) from the services; do not edit.
import type { BlockManifest } from './manifest.js';

export const blockManifests: readonly BlockManifest[] = [
  {
    "type": "tinybird",
    "name": "Tinybird",
    "description": "Ingest events, run SQL, call pipe endpoints, read the workspace's schema and jobs, and maintain Data Sources in Tinybird.",
    "category": "tools",
    "color": "#2D27F7",
    "icon": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.8\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M5 14.5c0-4.1 2.9-7.5 6.8-7.5 2.1 0 3.7 1 4.5 2.5l3.2 1-3 1.3c-.4 3.6-3 6.2-6.8 6.2H3z\"/><path d=\"M7.8 11.2c.6 2.4 3 3.7 5.7 2.7\"/><circle cx=\"14\" cy=\"9.3\" r=\".7\" fill=\"currentColor\"/><path d=\"M4 21.5l5-2 5 1 6-3\"/></svg>",
    "tools": {
      "access": [
        "tinybird_events",
        "tinybird_query",
        "tinybird_query_pipe",
        "tinybird_append_datasource",
        "tinybird_append_data",
        "tinybird_truncate_datasource",
        "tinybird_delete_datasource_rows",
        "tinybird_get_job",
        "tinybird_list_datasources",
        "tinybird_get_datasource",
        "tinybird_list_pipes",
        "tinybird_get_pipe",
        "tinybird_list_jobs",
        "tinybird_cancel_job",
        "tinybird_create_token",
        "tinybird_api_call"
      ],
      "operationField": "operation",
      "byOperation": {
        "events": "tinybird_events",
        "query": "tinybird_query",
        "query_pipe": "tinybird_query_pipe",
        "append_datasource": "tinybird_append_datasource",
        "append_data": "tinybird_append_data",
        "truncate_datasource": "tinybird_truncate_datasource",
        "delete_datasource_rows": "tinybird_delete_datasource_rows",
        "get_job": "tinybird_get_job",
        "list_datasources": "tinybird_list_datasources",
        "get_datasource": "tinybird_get_datasource",
        "list_pipes": "tinybird_list_pipes",
        "get_pipe": "tinybird_get_pipe",
        "list_jobs": "tinybird_list_jobs",
        "cancel_job": "tinybird_cancel_job",
        "create_token": "tinybird_create_token",
        "api_call": "tinybird_api_call"
      },
      "readOnly": [
        "query",
        "query_pipe",
        "get_job",
        "list_datasources",
        "get_datasource",
        "list_pipes",
        "get_pipe",
        "list_jobs"
      ]
    },
    "fields": [
      {
        "id": "operation",
        "param": "operation",
        "title": "Operation",
        "type": "dropdown",
        "requiredFor": [
          "events",
          "query",
          "query_pipe",
          "append_datasource",
          "append_data",
          "truncate_datasource",
          "delete_datasource_rows",
          "get_job",
          "list_datasources",
          "get_datasource",
          "list_pipes",
          "get_pipe",
          "list_jobs",
          "cancel_job",
          "create_token",
          "api_call"
        ],
        "visibility": "user-only",
        "options": [
          {
            "id": "events",
            "label": "Send events"
          },
          {
            "id": "query",
            "label": "Run SQL query"
          },
          {
            "id": "query_pipe",
            "label": "Call a pipe endpoint"
          },
          {
            "id": "append_datasource",
            "label": "Append from URL"
          },
          {
            "id": "append_data",
            "label": "Append data"
          },
          {
            "id": "truncate_datasource",
            "label": "Truncate Data Source"
          },
          {
            "id": "delete_datasource_rows",
            "label": "Delete rows by condition"
          },
          {
            "id": "get_job",
            "label": "Get job"
          },
          {
            "id": "list_datasources",
            "label": "List Data Sources"
          },
          {
            "id": "get_datasource",
            "label": "Get Data Source"
          },
          {
            "id": "list_pipes",
            "label": "List pipes"
          },
          {
            "id": "get_pipe",
            "label": "Get pipe"
          },
          {
            "id": "list_jobs",
            "label": "List jobs"
          },
          {
            "id": "cancel_job",
            "label": "Cancel job"
          },
          {
            "id": "create_token",
            "label": "Create token"
          },
          {
            "id": "api_call",
            "label": "Custom API call"
          }
        ],
        "default": "events"
      },
      {
        "id": "base_url",
        "param": "base_url",
        "title": "Base URL",
        "type": "short-input",
        "visibility": "user-only",
        "description": "API base URL of the workspace region, e.g. https://api.tinybird.co or https://api.us-east.aws.tinybird.co",
        "requiredFor": [
          "events",
          "query",
          "query_pipe",
          "append_datasource",
          "append_data",
          "truncate_datasource",
          "delete_datasource_rows",
          "get_job",
          "list_datasources",
          "get_datasource",
          "list_pipes",
          "get_pipe",
          "list_jobs",
          "cancel_job",
          "create_token",
          "api_call"
        ]
      },
      {
        "id": "token",
        "param": "token",
        "title": "Token",
        "type": "short-input",
        "visibility": "user-only",
        "description": "Tinybird API token (workspace or personal), sent as a Bearer token",
        "password": true,
        "requiredFor": [
          "events",
          "query",
          "query_pipe",
          "append_datasource",
          "append_data",
          "truncate_datasource",
          "delete_datasource_rows",
          "get_job",
          "list_datasources",
          "get_datasource",
          "list_pipes",
          "get_pipe",
          "list_jobs",
          "cancel_job",
          "create_token",
          "api_call"
        ]
      },
      {
        "id": "datasource",
        "param": "datasource",
        "title": "Data Source",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Target Data Source name",
        "requiredFor": [
          "events",
          "append_datasource",
          "append_data",
          "truncate_datasource",
          "delete_datasource_rows",
          "get_datasource"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "events",
            "append_datasource",
            "append_data",
            "truncate_datasource",
            "delete_datasource_rows",
            "get_datasource"
          ]
        }
      },
      {
        "id": "data",
        "param": "data",
        "title": "Data",
        "type": "code",
        "language": "ndjson",
        "visibility": "user-or-llm",
        "description": "Events as NDJSON text or JSON text; each event a JSON object",
        "placeholder": "{\"timestamp\":\"2026-01-01 00:00:00\",\"event\":\"signup\"}",
        "requiredFor": [
          "events",
          "append_data"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "events",
            "append_data"
          ]
        }
      },
      {
        "id": "wait",
        "param": "wait",
        "title": "Wait",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Wait for the database acknowledgment before responding: safer retries, more latency",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "events"
          ]
        }
      },
      {
        "id": "format",
        "param": "format",
        "title": "Format",
        "type": "dropdown",
        "options": [
          {
            "id": "ndjson",
            "label": "ndjson"
          },
          {
            "id": "json",
            "label": "json"
          }
        ],
        "visibility": "user-or-llm",
        "description": "Format of data",
        "default": "ndjson",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "events"
          ]
        }
      },
      {
        "id": "compression",
        "param": "compression",
        "title": "Compression",
        "type": "dropdown",
        "options": [
          {
            "id": "none",
            "label": "none"
          },
          {
            "id": "gzip",
            "label": "gzip"
          }
        ],
        "visibility": "user-or-llm",
        "description": "Gzip the request body",
        "default": "none",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "events"
          ]
        }
      },
      {
        "id": "max_request_bytes",
        "param": "max_request_bytes",
        "title": "Max request bytes",
        "type": "number",
        "visibility": "user-only",
        "description": "Largest request body; larger data is split at line boundaries (the Free plan refuses over 10 MB)",
        "default": 10000000,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "events"
          ]
        }
      },
      {
        "id": "concurrency",
        "param": "concurrency",
        "title": "Concurrency",
        "type": "number",
        "visibility": "user-only",
        "description": "Requests in flight at once when data is split (the service takes 20 MB/s per Data Source)",
        "default": 2,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "events"
          ]
        }
      },
      {
        "id": "on_ambiguous",
        "param": "on_ambiguous",
        "title": "On ambiguous",
        "type": "dropdown",
        "options": [
          {
            "id": "stop",
            "label": "stop"
          },
          {
            "id": "retry",
            "label": "retry"
          }
        ],
        "visibility": "user-only",
        "description": "After a fault that leaves the outcome unknown (a cut connection, a time-out): stop and report the rows as unknown, or retry (the rows may then land twice)",
        "default": "stop",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "events"
          ]
        }
      },
      {
        "id": "query",
        "param": "query",
        "title": "Query",
        "type": "code",
        "language": "sql",
        "visibility": "user-or-llm",
        "description": "SQL; a trailing FORMAT clause picks the output format (JSON, CSV, TSV, JSONEachRow, …)",
        "placeholder": "SELECT count() FROM events FORMAT JSON",
        "requiredFor": [
          "query"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "query"
          ]
        }
      },
      {
        "id": "pipeline",
        "param": "pipeline",
        "title": "Pipeline",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Pipe name; lets the SQL say SELECT * FROM _",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "query"
          ]
        }
      },
      {
        "id": "pipe",
        "param": "pipe",
        "title": "Pipe",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Name of the published pipe endpoint",
        "requiredFor": [
          "query_pipe",
          "get_pipe"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "query_pipe",
            "get_pipe"
          ]
        }
      },
      {
        "id": "parameters",
        "param": "parameters",
        "title": "Parameters",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Dynamic pipe parameters, sent as query-string arguments (arrays as repeated keys)",
        "placeholder": "{\"start_date\":\"2026-01-01\",\"limit\":10}",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "query_pipe"
          ]
        }
      },
      {
        "id": "q",
        "param": "q",
        "title": "SQL",
        "type": "code",
        "language": "sql",
        "visibility": "user-or-llm",
        "description": "SQL run on top of the pipe result; `_` references the pipe",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "query_pipe"
          ]
        }
      },
      {
        "id": "url",
        "param": "url",
        "title": "URL",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Publicly accessible file URL (http or https)",
        "requiredFor": [
          "append_datasource"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "append_datasource"
          ]
        }
      },
      {
        "id": "append_datasource_format",
        "param": "format",
        "title": "Format",
        "type": "dropdown",
        "options": [
          {
            "id": "csv",
            "label": "csv"
          },
          {
            "id": "ndjson",
            "label": "ndjson"
          },
          {
            "id": "parquet",
            "label": "parquet"
          }
        ],
        "visibility": "user-or-llm",
        "description": "File format",
        "default": "csv",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "append_datasource"
          ]
        }
      },
      {
        "id": "append_data_format",
        "param": "format",
        "title": "Format",
        "type": "dropdown",
        "options": [
          {
            "id": "csv",
            "label": "csv"
          },
          {
            "id": "ndjson",
            "label": "ndjson"
          }
        ],
        "visibility": "user-or-llm",
        "description": "Format of data",
        "default": "csv",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "append_data"
          ]
        }
      },
      {
        "id": "dialect_delimiter",
        "param": "dialect_delimiter",
        "title": "Dialect delimiter",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "CSV field delimiter (one character, default ,)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "append_data"
          ]
        }
      },
      {
        "id": "dialect_new_line",
        "param": "dialect_new_line",
        "title": "Dialect new line",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "CSV line separator (e.g. \\n or \\r\\n)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "append_data"
          ]
        }
      },
      {
        "id": "dialect_escapechar",
        "param": "dialect_escapechar",
        "title": "Dialect escapechar",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "CSV escape character (one character)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "append_data"
          ]
        }
      },
      {
        "id": "delete_condition",
        "param": "delete_condition",
        "title": "Delete condition",
        "type": "code",
        "language": "sql",
        "visibility": "user-or-llm",
        "description": "SQL WHERE-clause condition selecting the rows",
        "placeholder": "event = 'test'",
        "requiredFor": [
          "delete_datasource_rows"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "delete_datasource_rows"
          ]
        }
      },
      {
        "id": "dry_run",
        "param": "dry_run",
        "title": "Dry run",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Only count the rows that would be deleted",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "delete_datasource_rows"
          ]
        }
      },
      {
        "id": "job_id",
        "param": "job_id",
        "title": "Job ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Job id from an append or delete",
        "requiredFor": [
          "get_job",
          "cancel_job"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "get_job",
            "cancel_job"
          ]
        }
      },
      {
        "id": "wait_for_completion",
        "param": "wait_for_completion",
        "title": "Wait for completion",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Poll until the job is done, error or cancelled",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "get_job"
          ]
        }
      },
      {
        "id": "timeout_seconds",
        "param": "timeout_seconds",
        "title": "Timeout seconds",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "With wait_for_completion: give up after this many seconds",
        "default": 300,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "get_job"
          ]
        }
      },
      {
        "id": "kind",
        "param": "kind",
        "title": "Kind",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Job kind: import, delete_data, populateview, copy, sink, …",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_jobs"
          ]
        }
      },
      {
        "id": "status",
        "param": "status",
        "title": "Status",
        "type": "dropdown",
        "options": [
          {
            "id": "waiting",
            "label": "waiting"
          },
          {
            "id": "working",
            "label": "working"
          },
          {
            "id": "done",
            "label": "done"
          },
          {
            "id": "error",
            "label": "error"
          },
          {
            "id": "cancelling",
            "label": "cancelling"
          },
          {
            "id": "cancelled",
            "label": "cancelled"
          }
        ],
        "visibility": "user-or-llm",
        "description": "Job status",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_jobs"
          ]
        }
      },
      {
        "id": "pipe_id",
        "param": "pipe_id",
        "title": "Pipe ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Only jobs of this pipe (by id)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_jobs"
          ]
        }
      },
      {
        "id": "pipe_name",
        "param": "pipe_name",
        "title": "Pipe name",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Only jobs of this pipe (by name)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_jobs"
          ]
        }
      },
      {
        "id": "created_after",
        "param": "created_after",
        "title": "Created after",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Only jobs created after this ISO 8601 time",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_jobs"
          ]
        }
      },
      {
        "id": "created_before",
        "param": "created_before",
        "title": "Created before",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Only jobs created before this ISO 8601 time",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_jobs"
          ]
        }
      },
      {
        "id": "name",
        "param": "name",
        "title": "Name",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Token name",
        "requiredFor": [
          "create_token"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "create_token"
          ]
        }
      },
      {
        "id": "create_token_kind",
        "param": "kind",
        "title": "Kind",
        "type": "dropdown",
        "options": [
          {
            "id": "static",
            "label": "static"
          },
          {
            "id": "jwt",
            "label": "jwt"
          }
        ],
        "visibility": "user-or-llm",
        "description": "static (kept by the workspace) or jwt (signed, expires)",
        "default": "static",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_token"
          ]
        }
      },
      {
        "id": "scopes",
        "param": "scopes",
        "title": "Scopes",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "kind static: scope strings",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_token"
          ]
        }
      },
      {
        "id": "jwt_scopes",
        "param": "jwt_scopes",
        "title": "Jwt scopes",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "kind jwt: scopes with their resource and fixed params",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_token"
          ]
        }
      },
      {
        "id": "expires_at",
        "param": "expires_at",
        "title": "Expires at",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "kind jwt: expiry as Unix time in seconds",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_token"
          ]
        }
      },
      {
        "id": "rps",
        "param": "rps",
        "title": "Rps",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "kind jwt: requests per second allowed with the token",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_token"
          ]
        }
      },
      {
        "id": "method",
        "param": "method",
        "title": "Method",
        "type": "dropdown",
        "options": [
          {
            "id": "GET",
            "label": "GET"
          },
          {
            "id": "POST",
            "label": "POST"
          },
          {
            "id": "PUT",
            "label": "PUT"
          },
          {
            "id": "PATCH",
            "label": "PATCH"
          },
          {
            "id": "DELETE",
            "label": "DELETE"
          }
        ],
        "visibility": "user-or-llm",
        "description": "HTTP method",
        "default": "GET",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "path",
        "param": "path",
        "title": "Path",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Path under the service's base URL, starting with /",
        "requiredFor": [
          "api_call"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "api_call_query",
        "param": "query",
        "title": "Query",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Query-string parameters (arrays as repeated keys); never the credential",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "body",
        "param": "body",
        "title": "Body",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "JSON body (POST, PUT, PATCH, DELETE)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "headers",
        "param": "headers",
        "title": "Headers",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Extra request headers, only these: Accept, Accept-Language, Content-Type, Cache-Control, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, X-Request-Id, traceparent, tracestate (a JSON type); never the credential, Range or Accept-Encoding",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      }
    ],
    "inputs": {
      "operation": {
        "type": "string",
        "description": "Operation to perform"
      },
      "base_url": {
        "type": "string",
        "description": "API base URL of the workspace region, e.g. https://api.tinybird.co or https://api.us-east.aws.tinybird.co"
      },
      "token": {
        "type": "string",
        "description": "Tinybird API token (workspace or personal), sent as a Bearer token"
      },
      "datasource": {
        "type": "string",
        "description": "Target Data Source name"
      },
      "data": {
        "type": "string",
        "description": "Events as NDJSON text or JSON text; each event a JSON object"
      },
      "wait": {
        "type": "boolean",
        "description": "Wait for the database acknowledgment before responding: safer retries, more latency"
      },
      "format": {
        "type": "string",
        "description": "Format of data"
      },
      "compression": {
        "type": "string",
        "description": "Gzip the request body"
      },
      "max_request_bytes": {
        "type": "number",
        "description": "Largest request body; larger data is split at line boundaries (the Free plan refuses over 10 MB)"
      },
      "concurrency": {
        "type": "number",
        "description": "Requests in flight at once when data is split (the service takes 20 MB/s per Data Source)"
      },
      "on_ambiguous": {
        "type": "string",
        "description": "After a fault that leaves the outcome unknown (a cut connection, a time-out): stop and report the rows as unknown, or retry (the rows may then land twice)"
      },
      "query": {
        "type": "string",
        "description": "SQL; a trailing FORMAT clause picks the output format (JSON, CSV, TSV, JSONEachRow, …)"
      },
      "pipeline": {
        "type": "string",
        "description": "Pipe name; lets the SQL say SELECT * FROM _"
      },
      "pipe": {
        "type": "string",
        "description": "Name of the published pipe endpoint"
      },
      "parameters": {
        "type": "json",
        "description": "Dynamic pipe parameters, sent as query-string arguments (arrays as repeated keys)"
      },
      "q": {
        "type": "string",
        "description": "SQL run on top of the pipe result; `_` references the pipe"
      },
      "url": {
        "type": "string",
        "description": "Publicly accessible file URL (http or https)"
      },
      "append_datasource_format": {
        "type": "string",
        "description": "File format"
      },
      "append_data_format": {
        "type": "string",
        "description": "Format of data"
      },
      "dialect_delimiter": {
        "type": "string",
        "description": "CSV field delimiter (one character, default ,)"
      },
      "dialect_new_line": {
        "type": "string",
        "description": "CSV line separator (e.g. \\n or \\r\\n)"
      },
      "dialect_escapechar": {
        "type": "string",
        "description": "CSV escape character (one character)"
      },
      "delete_condition": {
        "type": "string",
        "description": "SQL WHERE-clause condition selecting the rows"
      },
      "dry_run": {
        "type": "boolean",
        "description": "Only count the rows that would be deleted"
      },
      "job_id": {
        "type": "string",
        "description": "Job id from an append or delete"
      },
      "wait_for_completion": {
        "type": "boolean",
        "description": "Poll until the job is done, error or cancelled"
      },
      "timeout_seconds": {
        "type": "number",
        "description": "With wait_for_completion: give up after this many seconds"
      },
      "kind": {
        "type": "string",
        "description": "Job kind: import, delete_data, populateview, copy, sink, …"
      },
      "status": {
        "type": "string",
        "description": "Job status"
      },
      "pipe_id": {
        "type": "string",
        "description": "Only jobs of this pipe (by id)"
      },
      "pipe_name": {
        "type": "string",
        "description": "Only jobs of this pipe (by name)"
      },
      "created_after": {
        "type": "string",
        "description": "Only jobs created after this ISO 8601 time"
      },
      "created_before": {
        "type": "string",
        "description": "Only jobs created before this ISO 8601 time"
      },
      "name": {
        "type": "string",
        "description": "Token name"
      },
      "create_token_kind": {
        "type": "string",
        "description": "static (kept by the workspace) or jwt (signed, expires)"
      },
      "scopes": {
        "type": "json",
        "description": "kind static: scope strings"
      },
      "jwt_scopes": {
        "type": "json",
        "description": "kind jwt: scopes with their resource and fixed params"
      },
      "expires_at": {
        "type": "number",
        "description": "kind jwt: expiry as Unix time in seconds"
      },
      "rps": {
        "type": "number",
        "description": "kind jwt: requests per second allowed with the token"
      },
      "method": {
        "type": "string",
        "description": "HTTP method"
      },
      "path": {
        "type": "string",
        "description": "Path under the service's base URL, starting with /"
      },
      "api_call_query": {
        "type": "json",
        "description": "Query-string parameters (arrays as repeated keys); never the credential"
      },
      "body": {
        "type": "json",
        "description": "JSON body (POST, PUT, PATCH, DELETE)"
      },
      "headers": {
        "type": "json",
        "description": "Extra request headers, only these: Accept, Accept-Language, Content-Type, Cache-Control, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, X-Request-Id, traceparent, tracestate (a JSON type); never the credential, Range or Accept-Encoding"
      }
    },
    "outputs": {
      "events": {
        "successful_rows": {
          "type": "number",
          "description": "Rows ingested"
        },
        "quarantined_rows": {
          "type": "number",
          "description": "Rows that failed validation and went to <datasource>_quarantine"
        }
      },
      "query": {
        "data": {
          "type": "json",
          "description": "FORMAT JSON: an array of row objects; other formats: the raw text (Parquet: base64)"
        },
        "rows": {
          "type": "number",
          "description": "Row count (FORMAT JSON only)",
          "optional": true
        },
        "statistics": {
          "type": "object",
          "description": "Elapsed seconds, rows and bytes read (FORMAT JSON only)",
          "optional": true
        },
        "meta": {
          "type": "array",
          "description": "Column names and types",
          "optional": true
        },
        "rows_before_limit_at_least": {
          "type": "number",
          "description": "Rows without the LIMIT clause, when it has one",
          "optional": true
        }
      },
      "query_pipe": {
        "data": {
          "type": "array",
          "description": "Result rows"
        },
        "meta": {
          "type": "array",
          "description": "Column names and types"
        },
        "rows": {
          "type": "number",
          "description": "Row count"
        },
        "rows_before_limit_at_least": {
          "type": "number",
          "description": "Minimum row count without the LIMIT clause",
          "optional": true
        },
        "statistics": {
          "type": "object",
          "description": "Elapsed time in seconds, rows read, bytes read"
        }
      },
      "append_datasource": {
        "id": {
          "type": "string",
          "description": "Job id"
        },
        "import_id": {
          "type": "string",
          "description": "Import id (equal to the job id)"
        },
        "job_id": {
          "type": "string",
          "description": "Job id, for tinybird_get_job"
        },
        "job_url": {
          "type": "string",
          "description": "Job status URL"
        },
        "status": {
          "type": "string",
          "description": "Initial job status, usually waiting"
        },
        "job": {
          "type": "object",
          "description": "The job record"
        },
        "datasource": {
          "type": "object",
          "description": "The Data Source the job works on (id, name, …)",
          "optional": true
        }
      },
      "append_data": {
        "import_id": {
          "type": "string",
          "description": "Id of the import",
          "optional": true
        },
        "datasource": {
          "type": "object",
          "description": "The Data Source appended to",
          "optional": true
        },
        "invalid_lines": {
          "type": "number",
          "description": "Lines that could not be parsed"
        },
        "quarantine_rows": {
          "type": "number",
          "description": "Rows sent to the Data Source's quarantine table"
        },
        "error": {
          "type": "boolean",
          "description": "false, or what went wrong",
          "optional": true
        }
      },
      "truncate_datasource": {
        "truncated": {
          "type": "boolean",
          "description": "True once the rows are gone"
        },
        "result": {
          "type": "json",
          "description": "Raw response body if any (the service answers 205 with none)"
        }
      },
      "delete_datasource_rows": {
        "id": {
          "type": "string",
          "description": "Job id",
          "optional": true
        },
        "job_id": {
          "type": "string",
          "description": "Job id, for tinybird_get_job",
          "optional": true
        },
        "delete_id": {
          "type": "string",
          "description": "Delete id (equal to the job id)",
          "optional": true
        },
        "job_url": {
          "type": "string",
          "description": "Job status URL",
          "optional": true
        },
        "status": {
          "type": "string",
          "description": "Job status, e.g. waiting or done",
          "optional": true
        },
        "job": {
          "type": "object",
          "description": "The job record",
          "optional": true
        },
        "rows_to_be_deleted": {
          "type": "number",
          "description": "Dry run only: rows that match the condition",
          "optional": true
        }
      },
      "get_job": {
        "kind": {
          "type": "string",
          "optional": true
        },
        "id": {
          "type": "string"
        },
        "job_id": {
          "type": "string",
          "optional": true
        },
        "status": {
          "type": "string"
        },
        "created_at": {
          "type": "string",
          "optional": true
        },
        "updated_at": {
          "type": "string",
          "optional": true
        },
        "started_at": {
          "type": "string",
          "optional": true
        },
        "is_cancellable": {
          "type": "boolean",
          "optional": true
        },
        "datasource": {
          "type": "object",
          "optional": true
        },
        "delete_condition": {
          "type": "string",
          "optional": true
        },
        "rows_affected": {
          "type": "number",
          "optional": true
        },
        "error": {
          "type": "string",
          "optional": true
        }
      },
      "list_datasources": {
        "datasources": {
          "type": "array",
          "description": "Data Sources the token may read"
        }
      },
      "get_datasource": {
        "id": {
          "type": "string",
          "optional": true
        },
        "name": {
          "type": "string"
        },
        "description": {
          "type": "string",
          "optional": true
        },
        "type": {
          "type": "string",
          "optional": true
        },
        "created_at": {
          "type": "string",
          "optional": true
        },
        "updated_at": {
          "type": "string",
          "optional": true
        },
        "engine": {
          "type": "object",
          "optional": true
        },
        "columns": {
          "type": "array"
        },
        "statistics": {
          "type": "object",
          "description": "Stored size and row count",
          "optional": true
        }
      },
      "list_pipes": {
        "pipes": {
          "type": "array",
          "description": "Pipes the token may read"
        }
      },
      "get_pipe": {
        "id": {
          "type": "string",
          "optional": true
        },
        "name": {
          "type": "string"
        },
        "description": {
          "type": "string",
          "optional": true
        },
        "type": {
          "type": "string",
          "description": "endpoint, materialized, copy, … or default",
          "optional": true
        },
        "endpoint": {
          "type": "string",
          "description": "Id of the node published as the endpoint, or null",
          "optional": true
        },
        "created_at": {
          "type": "string",
          "optional": true
        },
        "updated_at": {
          "type": "string",
          "optional": true
        },
        "nodes": {
          "type": "array",
          "optional": true
        },
        "parameters": {
          "type": "array",
          "description": "Dynamic parameters of the endpoint node (empty when none or not published)"
        }
      },
      "list_jobs": {
        "jobs": {
          "type": "array",
          "description": "Jobs, as the Jobs API lists them"
        }
      },
      "cancel_job": {
        "kind": {
          "type": "string",
          "optional": true
        },
        "id": {
          "type": "string"
        },
        "job_id": {
          "type": "string",
          "optional": true
        },
        "status": {
          "type": "string"
        },
        "created_at": {
          "type": "string",
          "optional": true
        },
        "updated_at": {
          "type": "string",
          "optional": true
        },
        "started_at": {
          "type": "string",
          "optional": true
        },
        "is_cancellable": {
          "type": "boolean",
          "optional": true
        },
        "datasource": {
          "type": "object",
          "optional": true
        },
        "delete_condition": {
          "type": "string",
          "optional": true
        },
        "rows_affected": {
          "type": "number",
          "optional": true
        },
        "error": {
          "type": "string",
          "optional": true
        }
      },
      "create_token": {
        "token": {
          "type": "string",
          "description": "The new token: keep it secret"
        },
        "name": {
          "type": "string",
          "optional": true
        }
      },
      "api_call": {
        "status": {
          "type": "number",
          "description": "HTTP status of the 2xx answer"
        },
        "body": {
          "type": "json",
          "description": "The answer: JSON, text, or null when empty"
        }
      }
    },
    "docsUrl": "https://www.tinybird.co/docs/api-reference",
    "catalog": {
      "kind": "analytics",
      "tags": [
        "data-warehouse",
        "data-analytics"
      ]
    }
  },
  {
    "type": "loops",
    "name": "Loops",
    "description": "Manage contacts, send transactional e-mail and events, and read mailing lists, templates and contact properties in Loops.",
    "category": "tools",
    "color": "#FF6B35",
    "icon": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.8\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><path d=\"M21.5 12A9.5 9.5 0 1 1 18.1 4.7\"/><path d=\"M17.8 1.7l.3 3-3 .3\"/><rect x=\"7\" y=\"8.5\" width=\"10\" height=\"7\" rx=\"1\"/><path d=\"M7.5 9.3l4.5 3.3 4.5-3.3\"/></svg>",
    "tools": {
      "access": [
        "loops_create_contact",
        "loops_update_contact",
        "loops_find_contact",
        "loops_delete_contact",
        "loops_send_transactional_email",
        "loops_send_event",
        "loops_list_mailing_lists",
        "loops_list_transactional_emails",
        "loops_get_transactional_email",
        "loops_create_contact_property",
        "loops_list_contact_properties",
        "loops_check_contact_suppression",
        "loops_remove_contact_suppression",
        "loops_test_api_key",
        "loops_list_event_patterns",
        "loops_get_event_pattern",
        "loops_list_dedicated_sending_ips",
        "loops_api_call"
      ],
      "operationField": "operation",
      "byOperation": {
        "create_contact": "loops_create_contact",
        "update_contact": "loops_update_contact",
        "find_contact": "loops_find_contact",
        "delete_contact": "loops_delete_contact",
        "send_transactional_email": "loops_send_transactional_email",
        "send_event": "loops_send_event",
        "list_mailing_lists": "loops_list_mailing_lists",
        "list_transactional_emails": "loops_list_transactional_emails",
        "get_transactional_email": "loops_get_transactional_email",
        "create_contact_property": "loops_create_contact_property",
        "list_contact_properties": "loops_list_contact_properties",
        "check_contact_suppression": "loops_check_contact_suppression",
        "remove_contact_suppression": "loops_remove_contact_suppression",
        "test_api_key": "loops_test_api_key",
        "list_event_patterns": "loops_list_event_patterns",
        "get_event_pattern": "loops_get_event_pattern",
        "list_dedicated_sending_ips": "loops_list_dedicated_sending_ips",
        "api_call": "loops_api_call"
      },
      "readOnly": [
        "find_contact",
        "list_mailing_lists",
        "list_transactional_emails",
        "get_transactional_email",
        "list_contact_properties",
        "check_contact_suppression",
        "test_api_key",
        "list_event_patterns",
        "get_event_pattern",
        "list_dedicated_sending_ips"
      ]
    },
    "fields": [
      {
        "id": "operation",
        "param": "operation",
        "title": "Operation",
        "type": "dropdown",
        "requiredFor": [
          "create_contact",
          "update_contact",
          "find_contact",
          "delete_contact",
          "send_transactional_email",
          "send_event",
          "list_mailing_lists",
          "list_transactional_emails",
          "get_transactional_email",
          "create_contact_property",
          "list_contact_properties",
          "check_contact_suppression",
          "remove_contact_suppression",
          "test_api_key",
          "list_event_patterns",
          "get_event_pattern",
          "list_dedicated_sending_ips",
          "api_call"
        ],
        "visibility": "user-only",
        "options": [
          {
            "id": "create_contact",
            "label": "Create contact"
          },
          {
            "id": "update_contact",
            "label": "Update contact"
          },
          {
            "id": "find_contact",
            "label": "Find contact"
          },
          {
            "id": "delete_contact",
            "label": "Delete contact"
          },
          {
            "id": "send_transactional_email",
            "label": "Send transactional email"
          },
          {
            "id": "send_event",
            "label": "Send event"
          },
          {
            "id": "list_mailing_lists",
            "label": "List mailing lists"
          },
          {
            "id": "list_transactional_emails",
            "label": "List transactional emails"
          },
          {
            "id": "get_transactional_email",
            "label": "Get transactional email"
          },
          {
            "id": "create_contact_property",
            "label": "Create contact property"
          },
          {
            "id": "list_contact_properties",
            "label": "List contact properties"
          },
          {
            "id": "check_contact_suppression",
            "label": "Check contact suppression"
          },
          {
            "id": "remove_contact_suppression",
            "label": "Remove contact suppression"
          },
          {
            "id": "test_api_key",
            "label": "Test API key"
          },
          {
            "id": "list_event_patterns",
            "label": "List event patterns"
          },
          {
            "id": "get_event_pattern",
            "label": "Get event pattern"
          },
          {
            "id": "list_dedicated_sending_ips",
            "label": "List dedicated sending IPs"
          },
          {
            "id": "api_call",
            "label": "Custom API call"
          }
        ],
        "default": "create_contact"
      },
      {
        "id": "apiKey",
        "param": "apiKey",
        "title": "API key",
        "type": "short-input",
        "visibility": "user-only",
        "description": "Loops API key (Settings → API), sent as a Bearer token",
        "password": true,
        "requiredFor": [
          "create_contact",
          "update_contact",
          "find_contact",
          "delete_contact",
          "send_transactional_email",
          "send_event",
          "list_mailing_lists",
          "list_transactional_emails",
          "get_transactional_email",
          "create_contact_property",
          "list_contact_properties",
          "check_contact_suppression",
          "remove_contact_suppression",
          "test_api_key",
          "list_event_patterns",
          "get_event_pattern",
          "list_dedicated_sending_ips",
          "api_call"
        ]
      },
      {
        "id": "email",
        "param": "email",
        "title": "Email",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Contact e-mail address",
        "requiredFor": [
          "create_contact",
          "send_transactional_email"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact",
            "update_contact",
            "find_contact",
            "delete_contact",
            "send_transactional_email",
            "send_event",
            "check_contact_suppression",
            "remove_contact_suppression"
          ]
        }
      },
      {
        "id": "firstName",
        "param": "firstName",
        "title": "First name",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "First name",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact",
            "update_contact"
          ]
        }
      },
      {
        "id": "lastName",
        "param": "lastName",
        "title": "Last name",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Last name",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact",
            "update_contact"
          ]
        }
      },
      {
        "id": "source",
        "param": "source",
        "title": "Source",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Where the contact came from; replaces the default \"API\"",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact",
            "update_contact"
          ]
        }
      },
      {
        "id": "subscribed",
        "param": "subscribed",
        "title": "Subscribed",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Subscribe the contact to campaign and workflow e-mail",
        "default": true,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact"
          ]
        }
      },
      {
        "id": "userGroup",
        "param": "userGroup",
        "title": "User group",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "The contact's user group (one per contact)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact",
            "update_contact"
          ]
        }
      },
      {
        "id": "userId",
        "param": "userId",
        "title": "User ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Your own unique id for the contact (userId in Loops)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact",
            "update_contact",
            "find_contact",
            "delete_contact",
            "send_event",
            "check_contact_suppression",
            "remove_contact_suppression"
          ]
        }
      },
      {
        "id": "mailingLists",
        "param": "mailingLists",
        "title": "Mailing lists",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Mailing-list subscriptions by list id: true subscribes, false unsubscribes (ids from loops_list_mailing_lists)",
        "placeholder": "{\"cm06f5v0e45nf0ml5754o9cix\":true}",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact",
            "update_contact",
            "send_event"
          ]
        }
      },
      {
        "id": "customProperties",
        "param": "customProperties",
        "title": "Custom properties",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Contact properties by camelCase key (string, number, boolean, or a date as YYYY-MM-DD / ISO string / Unix ms). They must exist in Loops first",
        "placeholder": "{\"planName\":\"Pro\"}",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact",
            "update_contact"
          ]
        }
      },
      {
        "id": "update_contact_subscribed",
        "param": "subscribed",
        "title": "Subscribed",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Re-subscribe (true) or unsubscribe (false) the contact; leave out to keep as is",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "update_contact"
          ]
        }
      },
      {
        "id": "transactionalId",
        "param": "transactionalId",
        "title": "Transactional ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Id of the transactional e-mail template (from loops_list_transactional_emails)",
        "requiredFor": [
          "send_transactional_email",
          "get_transactional_email"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "send_transactional_email",
            "get_transactional_email"
          ]
        }
      },
      {
        "id": "dataVariables",
        "param": "dataVariables",
        "title": "Data variables",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Values for the template's data variables, by case-sensitive name (letters, digits, _ and -): strings or numbers, arrays of objects for array blocks; leave optional ones out or send \"\"",
        "placeholder": "{\"name\":\"Alex\",\"resetUrl\":\"https://example.com/reset\"}",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "send_transactional_email"
          ]
        }
      },
      {
        "id": "addToAudience",
        "param": "addToAudience",
        "title": "Add to audience",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Also create the recipient as a contact if absent",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "send_transactional_email"
          ]
        }
      },
      {
        "id": "attachments",
        "param": "attachments",
        "title": "Attachments",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Files to attach: {filename, contentType, data (base64)}; attachments must be enabled for the team by Loops support",
        "placeholder": "[{\"filename\":\"invoice.pdf\",\"contentType\":\"application/pdf\",\"data\":\"JVBERi0...\"}]",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "send_transactional_email"
          ]
        }
      },
      {
        "id": "eventName",
        "param": "eventName",
        "title": "Event name",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Name of the event, e.g. signup",
        "requiredFor": [
          "send_event"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "send_event",
            "get_event_pattern"
          ]
        }
      },
      {
        "id": "eventProperties",
        "param": "eventProperties",
        "title": "Event properties",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Event properties for e-mails the event triggers: string, number, boolean, or a date (YYYY-MM-DD / ISO string / Unix ms)",
        "placeholder": "{\"plan\":\"pro\"}",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "send_event"
          ]
        }
      },
      {
        "id": "perPage",
        "param": "perPage",
        "title": "Per page",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Templates per page, 10 to 50",
        "default": "20",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_transactional_emails",
            "list_event_patterns"
          ]
        }
      },
      {
        "id": "cursor",
        "param": "cursor",
        "title": "Cursor",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "pagination.nextCursor of the previous page",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_transactional_emails",
            "list_event_patterns"
          ]
        }
      },
      {
        "id": "name",
        "param": "name",
        "title": "Name",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Property name in camelCase, e.g. planName",
        "requiredFor": [
          "create_contact_property"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact_property"
          ]
        }
      },
      {
        "id": "type",
        "param": "type",
        "title": "Type",
        "type": "dropdown",
        "options": [
          {
            "id": "string",
            "label": "string"
          },
          {
            "id": "number",
            "label": "number"
          },
          {
            "id": "boolean",
            "label": "boolean"
          },
          {
            "id": "date",
            "label": "date"
          }
        ],
        "visibility": "user-or-llm",
        "description": "Value type of the property",
        "requiredFor": [
          "create_contact_property"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "create_contact_property"
          ]
        }
      },
      {
        "id": "list",
        "param": "list",
        "title": "List",
        "type": "dropdown",
        "options": [
          {
            "id": "all",
            "label": "all"
          },
          {
            "id": "custom",
            "label": "custom"
          }
        ],
        "visibility": "user-or-llm",
        "description": "all properties, or only custom ones",
        "default": "all",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_contact_properties"
          ]
        }
      },
      {
        "id": "eventPatternId",
        "param": "eventPatternId",
        "title": "Event pattern ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Event pattern id, from loops_list_event_patterns",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "get_event_pattern"
          ]
        }
      },
      {
        "id": "method",
        "param": "method",
        "title": "Method",
        "type": "dropdown",
        "options": [
          {
            "id": "GET",
            "label": "GET"
          },
          {
            "id": "POST",
            "label": "POST"
          },
          {
            "id": "PUT",
            "label": "PUT"
          },
          {
            "id": "PATCH",
            "label": "PATCH"
          },
          {
            "id": "DELETE",
            "label": "DELETE"
          }
        ],
        "visibility": "user-or-llm",
        "description": "HTTP method",
        "default": "GET",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "path",
        "param": "path",
        "title": "Path",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Path under the service's base URL, starting with /",
        "requiredFor": [
          "api_call"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "query",
        "param": "query",
        "title": "Query",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Query-string parameters (arrays as repeated keys); never the credential",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "body",
        "param": "body",
        "title": "Body",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "JSON body (POST, PUT, PATCH, DELETE)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "headers",
        "param": "headers",
        "title": "Headers",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Extra request headers, only these: Accept, Accept-Language, Content-Type, Cache-Control, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, X-Request-Id, traceparent, tracestate (a JSON type); never the credential, Range or Accept-Encoding",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      }
    ],
    "inputs": {
      "operation": {
        "type": "string",
        "description": "Operation to perform"
      },
      "apiKey": {
        "type": "string",
        "description": "Loops API key (Settings → API), sent as a Bearer token"
      },
      "email": {
        "type": "string",
        "description": "Contact e-mail address"
      },
      "firstName": {
        "type": "string",
        "description": "First name"
      },
      "lastName": {
        "type": "string",
        "description": "Last name"
      },
      "source": {
        "type": "string",
        "description": "Where the contact came from; replaces the default \"API\""
      },
      "subscribed": {
        "type": "boolean",
        "description": "Subscribe the contact to campaign and workflow e-mail"
      },
      "userGroup": {
        "type": "string",
        "description": "The contact's user group (one per contact)"
      },
      "userId": {
        "type": "string",
        "description": "Your own unique id for the contact (userId in Loops)"
      },
      "mailingLists": {
        "type": "json",
        "description": "Mailing-list subscriptions by list id: true subscribes, false unsubscribes (ids from loops_list_mailing_lists)"
      },
      "customProperties": {
        "type": "json",
        "description": "Contact properties by camelCase key (string, number, boolean, or a date as YYYY-MM-DD / ISO string / Unix ms). They must exist in Loops first"
      },
      "update_contact_subscribed": {
        "type": "boolean",
        "description": "Re-subscribe (true) or unsubscribe (false) the contact; leave out to keep as is"
      },
      "transactionalId": {
        "type": "string",
        "description": "Id of the transactional e-mail template (from loops_list_transactional_emails)"
      },
      "dataVariables": {
        "type": "json",
        "description": "Values for the template's data variables, by case-sensitive name (letters, digits, _ and -): strings or numbers, arrays of objects for array blocks; leave optional ones out or send \"\""
      },
      "addToAudience": {
        "type": "boolean",
        "description": "Also create the recipient as a contact if absent"
      },
      "attachments": {
        "type": "json",
        "description": "Files to attach: {filename, contentType, data (base64)}; attachments must be enabled for the team by Loops support"
      },
      "eventName": {
        "type": "string",
        "description": "Name of the event, e.g. signup"
      },
      "eventProperties": {
        "type": "json",
        "description": "Event properties for e-mails the event triggers: string, number, boolean, or a date (YYYY-MM-DD / ISO string / Unix ms)"
      },
      "perPage": {
        "type": "string",
        "description": "Templates per page, 10 to 50"
      },
      "cursor": {
        "type": "string",
        "description": "pagination.nextCursor of the previous page"
      },
      "name": {
        "type": "string",
        "description": "Property name in camelCase, e.g. planName"
      },
      "type": {
        "type": "string",
        "description": "Value type of the property"
      },
      "list": {
        "type": "string",
        "description": "all properties, or only custom ones"
      },
      "eventPatternId": {
        "type": "string",
        "description": "Event pattern id, from loops_list_event_patterns"
      },
      "method": {
        "type": "string",
        "description": "HTTP method"
      },
      "path": {
        "type": "string",
        "description": "Path under the service's base URL, starting with /"
      },
      "query": {
        "type": "json",
        "description": "Query-string parameters (arrays as repeated keys); never the credential"
      },
      "body": {
        "type": "json",
        "description": "JSON body (POST, PUT, PATCH, DELETE)"
      },
      "headers": {
        "type": "json",
        "description": "Extra request headers, only these: Accept, Accept-Language, Content-Type, Cache-Control, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, X-Request-Id, traceparent, tracestate (a JSON type); never the credential, Range or Accept-Encoding"
      }
    },
    "outputs": {
      "create_contact": {
        "success": {
          "type": "boolean",
          "description": "True when the contact was created"
        },
        "id": {
          "type": "string",
          "description": "Id of the new contact"
        }
      },
      "update_contact": {
        "success": {
          "type": "boolean",
          "description": "True when the contact was updated or created"
        },
        "id": {
          "type": "string",
          "description": "Id of the updated or created contact"
        }
      },
      "find_contact": {
        "contacts": {
          "type": "array",
          "description": "Matching contacts (empty when none)"
        }
      },
      "delete_contact": {
        "success": {
          "type": "boolean",
          "description": "True when the contact is gone"
        },
        "message": {
          "type": "string",
          "description": "The service's confirmation"
        }
      },
      "send_transactional_email": {
        "success": {
          "type": "boolean",
          "description": "True when the e-mail was accepted for sending"
        }
      },
      "send_event": {
        "success": {
          "type": "boolean",
          "description": "True when the event was recorded"
        }
      },
      "list_mailing_lists": {
        "mailingLists": {
          "type": "array",
          "description": "Every mailing list"
        }
      },
      "list_transactional_emails": {
        "transactionalEmails": {
          "type": "array",
          "description": "Transactional templates on this page"
        },
        "pagination": {
          "type": "object",
          "description": "Paging: totals, and the cursor of the next page"
        },
        "endpoint": {
          "type": "string",
          "description": "The endpoint that answered: /transactional (published templates only) when the account has no /transactional-emails"
        }
      },
      "get_transactional_email": {
        "id": {
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "draftEmailMessageId": {
          "type": "string",
          "description": "Id of the draft e-mail message, or null"
        },
        "publishedEmailMessageId": {
          "type": "string",
          "description": "Id of the published e-mail message, or null when never published"
        },
        "transactionalGroupId": {
          "type": "string"
        },
        "createdAt": {
          "type": "string",
          "description": "ISO 8601 creation time"
        },
        "updatedAt": {
          "type": "string",
          "description": "ISO 8601 time of the last change",
          "optional": true
        },
        "dataVariables": {
          "type": "array",
          "description": "Data variables the published e-mail uses: what a send must (or may) pass"
        },
        "published": {
          "type": "boolean",
          "description": "True when a published version exists and can be sent"
        }
      },
      "create_contact_property": {
        "success": {
          "type": "boolean",
          "description": "True when the property was created"
        }
      },
      "list_contact_properties": {
        "properties": {
          "type": "array",
          "description": "Contact properties"
        }
      },
      "check_contact_suppression": {
        "contact": {
          "type": "object",
          "description": "The contact checked"
        },
        "isSuppressed": {
          "type": "boolean",
          "description": "True when Loops no longer sends to this contact (hard bounce or spam complaint)"
        },
        "removalQuota": {
          "type": "object",
          "description": "Suppression removals allowed and left"
        }
      },
      "remove_contact_suppression": {
        "success": {
          "type": "boolean",
          "description": "True when the contact was taken off the suppression list"
        },
        "message": {
          "type": "string",
          "description": "The service's confirmation"
        },
        "removalQuota": {
          "type": "object",
          "description": "Suppression removals allowed and left"
        }
      },
      "test_api_key": {
        "success": {
          "type": "boolean",
          "description": "True when the key is valid"
        },
        "teamName": {
          "type": "string",
          "description": "Name of the team the key belongs to",
          "optional": true
        }
      },
      "list_event_patterns": {
        "eventPatterns": {
          "type": "array",
          "description": "Event patterns on this page"
        },
        "pagination": {
          "type": "object",
          "description": "Paging: totals, and the cursor of the next page"
        }
      },
      "get_event_pattern": {
        "id": {
          "type": "string"
        },
        "eventName": {
          "type": "string",
          "description": "Event name, as loops_send_event sends it (case-sensitive)"
        },
        "incomingWebhookPlatform": {
          "type": "string",
          "description": "The platform of an incoming-webhook event; null for custom events",
          "optional": true
        },
        "eventProperties": {
          "type": "array",
          "description": "Event properties workflows read, with their types"
        }
      },
      "list_dedicated_sending_ips": {
        "ips": {
          "type": "array",
          "description": "IP addresses"
        }
      },
      "api_call": {
        "status": {
          "type": "number",
          "description": "HTTP status of the 2xx answer"
        },
        "body": {
          "type": "json",
          "description": "The answer: JSON, text, or null when empty"
        }
      }
    },
    "docsUrl": "https://loops.so/docs/api-reference",
    "catalog": {
      "kind": "email",
      "tags": [
        "email-marketing",
        "marketing"
      ]
    }
  },
  {
    "type": "workflow",
    "name": "Workflow",
    "description": "Call another deployed Sim workflow (and wait for it, or start it in the background and watch its job) and read its execution logs, through Sim's external API (any platform serving the same execution and log API works too).",
    "category": "tools",
    "color": "#6F3DFA",
    "icon": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.8\" stroke-linecap=\"round\" stroke-linejoin=\"round\"><rect x=\"2.5\" y=\"3\" width=\"7.5\" height=\"6\" rx=\"1.5\"/><rect x=\"14\" y=\"9\" width=\"7.5\" height=\"6\" rx=\"1.5\"/><rect x=\"2.5\" y=\"15\" width=\"7.5\" height=\"6\" rx=\"1.5\"/><path d=\"M10 6c2.6 0 1.4 6 4 6\"/><path d=\"M14 12c-2.6 0-1.4 6-4 6\"/></svg>",
    "tools": {
      "access": [
        "workflow_execute",
        "workflow_get_job",
        "workflow_list_logs",
        "workflow_get_log",
        "workflow_get_execution",
        "workflow_api_call"
      ],
      "operationField": "operation",
      "byOperation": {
        "execute": "workflow_execute",
        "get_job": "workflow_get_job",
        "list_logs": "workflow_list_logs",
        "get_log": "workflow_get_log",
        "get_execution": "workflow_get_execution",
        "api_call": "workflow_api_call"
      },
      "readOnly": [
        "get_job",
        "list_logs",
        "get_log",
        "get_execution"
      ]
    },
    "fields": [
      {
        "id": "operation",
        "param": "operation",
        "title": "Operation",
        "type": "dropdown",
        "requiredFor": [
          "execute",
          "get_job",
          "list_logs",
          "get_log",
          "get_execution",
          "api_call"
        ],
        "visibility": "user-only",
        "options": [
          {
            "id": "execute",
            "label": "Execute workflow"
          },
          {
            "id": "get_job",
            "label": "Get job"
          },
          {
            "id": "list_logs",
            "label": "List logs"
          },
          {
            "id": "get_log",
            "label": "Get log"
          },
          {
            "id": "get_execution",
            "label": "Get execution"
          },
          {
            "id": "api_call",
            "label": "Custom API call"
          }
        ],
        "default": "execute"
      },
      {
        "id": "base_url",
        "param": "base_url",
        "title": "Base URL",
        "type": "short-input",
        "visibility": "user-only",
        "description": "Base URL of the workflow platform, e.g. https://workflows.example.com or a self-hosted install",
        "requiredFor": [
          "execute",
          "get_job",
          "list_logs",
          "get_log",
          "get_execution",
          "api_call"
        ]
      },
      {
        "id": "apiKey",
        "param": "apiKey",
        "title": "API key",
        "type": "short-input",
        "visibility": "user-only",
        "description": "API key from the platform settings, sent as X-API-Key",
        "password": true,
        "requiredFor": [
          "execute",
          "get_job",
          "list_logs",
          "get_log",
          "get_execution",
          "api_call"
        ]
      },
      {
        "id": "workflowId",
        "param": "workflowId",
        "title": "Workflow ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Id of the deployed workflow to run",
        "requiredFor": [
          "execute"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "execute"
          ]
        }
      },
      {
        "id": "inputs",
        "param": "inputs",
        "title": "Inputs",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Workflow inputs as a JSON object",
        "placeholder": "{\"customerId\": \"c_123\"}",
        "default": {},
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "execute"
          ]
        }
      },
      {
        "id": "async",
        "param": "async",
        "title": "Async",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Run in the background: return a taskId at once instead of the result",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "execute"
          ]
        }
      },
      {
        "id": "inputStyle",
        "param": "inputStyle",
        "title": "Input style",
        "type": "dropdown",
        "options": [
          {
            "id": "spec",
            "label": "spec"
          },
          {
            "id": "flat",
            "label": "flat"
          }
        ],
        "visibility": "user-only",
        "description": "How the body carries the inputs: spec sends {\"inputs\": {...}}, as the platform's API reference writes it; flat sends the inputs as the whole body, as a Sim deployment reads it (async then travels in the X-Execution-Mode header only; Sim honours X-Execution-Id, so a run that ends ambiguously is retried with the same id and cannot start twice)",
        "default": "spec",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "execute"
          ]
        }
      },
      {
        "id": "waitForCompletion",
        "param": "waitForCompletion",
        "title": "Wait for completion",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Poll the job until it is completed or failed (or cancelled) and return the final job record",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "execute",
            "get_job"
          ]
        }
      },
      {
        "id": "timeoutSeconds",
        "param": "timeoutSeconds",
        "title": "Timeout seconds",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "With waitForCompletion: give up after this many seconds in all (the job keeps running)",
        "default": 300,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "execute",
            "get_job"
          ]
        }
      },
      {
        "id": "pollIntervalSeconds",
        "param": "pollIntervalSeconds",
        "title": "Poll interval seconds",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "With waitForCompletion: the first wait between polls; later waits grow by half, up to 10 s",
        "default": 1,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "execute",
            "get_job"
          ]
        }
      },
      {
        "id": "taskId",
        "param": "taskId",
        "title": "Task ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "taskId returned by an asynchronous execute",
        "requiredFor": [
          "get_job"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "get_job"
          ]
        }
      },
      {
        "id": "workspaceId",
        "param": "workspaceId",
        "title": "Workspace ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Workspace id",
        "requiredFor": [
          "list_logs"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "workflowIds",
        "param": "workflowIds",
        "title": "Workflow IDs",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Only these workflows",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "folderIds",
        "param": "folderIds",
        "title": "Folder IDs",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Only workflows in these folders",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "triggers",
        "param": "triggers",
        "title": "Triggers",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Only these triggers: api, webhook, schedule, manual, chat",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "level",
        "param": "level",
        "title": "Level",
        "type": "dropdown",
        "options": [
          {
            "id": "info",
            "label": "info"
          },
          {
            "id": "error",
            "label": "error"
          }
        ],
        "visibility": "user-or-llm",
        "description": "Only this level",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "startDate",
        "param": "startDate",
        "title": "Start date",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "ISO time: runs started at or after it",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "endDate",
        "param": "endDate",
        "title": "End date",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "ISO time: runs started at or before it",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "executionId",
        "param": "executionId",
        "title": "Execution ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Exact execution id",
        "requiredFor": [
          "get_execution"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs",
            "get_execution"
          ]
        }
      },
      {
        "id": "minDurationMs",
        "param": "minDurationMs",
        "title": "Min duration (ms)",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "Shortest run, in milliseconds",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "maxDurationMs",
        "param": "maxDurationMs",
        "title": "Max duration (ms)",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "Longest run, in milliseconds",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "minCost",
        "param": "minCost",
        "title": "Min cost",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "Lowest execution cost",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "maxCost",
        "param": "maxCost",
        "title": "Max cost",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "Highest execution cost",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "model",
        "param": "model",
        "title": "Model",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Only runs that used this AI model",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "limit",
        "param": "limit",
        "title": "Limit",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "Entries per page",
        "default": 100,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "cursor",
        "param": "cursor",
        "title": "Cursor",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "nextCursor of the previous page",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "order",
        "param": "order",
        "title": "Order",
        "type": "dropdown",
        "options": [
          {
            "id": "desc",
            "label": "desc"
          },
          {
            "id": "asc",
            "label": "asc"
          }
        ],
        "visibility": "user-or-llm",
        "description": "By start time: desc (newest first) or asc",
        "default": "desc",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "details",
        "param": "details",
        "title": "Details",
        "type": "dropdown",
        "options": [
          {
            "id": "basic",
            "label": "basic"
          },
          {
            "id": "full",
            "label": "full"
          }
        ],
        "visibility": "user-or-llm",
        "description": "basic, or full (workflow, and the included extras)",
        "default": "basic",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "includeTraceSpans",
        "param": "includeTraceSpans",
        "title": "Include trace spans",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Add trace spans (deployments honour it with details full)",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "includeFinalOutput",
        "param": "includeFinalOutput",
        "title": "Include final output",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Add the final output (deployments honour it with details full)",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "followCursor",
        "param": "followCursor",
        "title": "Follow cursor",
        "type": "switch",
        "visibility": "user-or-llm",
        "description": "Keep fetching pages and return their entries together",
        "default": false,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "maxPages",
        "param": "maxPages",
        "title": "Max pages",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "With followCursor: stop after this many pages",
        "default": 10,
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "maxEntries",
        "param": "maxEntries",
        "title": "Max entries",
        "type": "number",
        "visibility": "user-or-llm",
        "description": "With followCursor: stop after this many entries",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "list_logs"
          ]
        }
      },
      {
        "id": "id",
        "param": "id",
        "title": "ID",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Log id, from List logs or a completion notification",
        "requiredFor": [
          "get_log"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "get_log"
          ]
        }
      },
      {
        "id": "method",
        "param": "method",
        "title": "Method",
        "type": "dropdown",
        "options": [
          {
            "id": "GET",
            "label": "GET"
          },
          {
            "id": "POST",
            "label": "POST"
          },
          {
            "id": "PUT",
            "label": "PUT"
          },
          {
            "id": "PATCH",
            "label": "PATCH"
          },
          {
            "id": "DELETE",
            "label": "DELETE"
          }
        ],
        "visibility": "user-or-llm",
        "description": "HTTP method",
        "default": "GET",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "path",
        "param": "path",
        "title": "Path",
        "type": "short-input",
        "visibility": "user-or-llm",
        "description": "Path under the service's base URL, starting with /",
        "requiredFor": [
          "api_call"
        ],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "query",
        "param": "query",
        "title": "Query",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Query-string parameters (arrays as repeated keys); never the credential",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "body",
        "param": "body",
        "title": "Body",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "JSON body (POST, PUT, PATCH, DELETE)",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      },
      {
        "id": "headers",
        "param": "headers",
        "title": "Headers",
        "type": "code",
        "language": "json",
        "visibility": "user-or-llm",
        "description": "Extra request headers, only these: Accept, Accept-Language, Content-Type, Cache-Control, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, X-Request-Id, traceparent, tracestate (a JSON type); never the credential, Range or Accept-Encoding",
        "requiredFor": [],
        "condition": {
          "field": "operation",
          "value": [
            "api_call"
          ]
        }
      }
    ],
    "inputs": {
      "operation": {
        "type": "string",
        "description": "Operation to perform"
      },
      "base_url": {
        "type": "string",
        "description": "Base URL of the workflow platform, e.g. https://workflows.example.com or a self-hosted install"
      },
      "apiKey": {
        "type": "string",
        "description": "API key from the platform settings, sent as X-API-Key"
      },
      "workflowId": {
        "type": "string",
        "description": "Id of the deployed workflow to run"
      },
      "inputs": {
        "type": "json",
        "description": "Workflow inputs as a JSON object"
      },
      "async": {
        "type": "boolean",
        "description": "Run in the background: return a taskId at once instead of the result"
      },
      "inputStyle": {
        "type": "string",
        "description": "How the body carries the inputs: spec sends {\"inputs\": {...}}, as the platform's API reference writes it; flat sends the inputs as the whole body, as a Sim deployment reads it (async then travels in the X-Execution-Mode header only; Sim honours X-Execution-Id, so a run that ends ambiguously is retried with the same id and cannot start twice)"
      },
      "waitForCompletion": {
        "type": "boolean",
        "description": "Poll the job until it is completed or failed (or cancelled) and return the final job record"
      },
      "timeoutSeconds": {
        "type": "number",
        "description": "With waitForCompletion: give up after this many seconds in all (the job keeps running)"
      },
      "pollIntervalSeconds": {
        "type": "number",
        "description": "With waitForCompletion: the first wait between polls; later waits grow by half, up to 10 s"
      },
      "taskId": {
        "type": "string",
        "description": "taskId returned by an asynchronous execute"
      },
      "workspaceId": {
        "type": "string",
        "description": "Workspace id"
      },
      "workflowIds": {
        "type": "json",
        "description": "Only these workflows"
      },
      "folderIds": {
        "type": "json",
        "description": "Only workflows in these folders"
      },
      "triggers": {
        "type": "json",
        "description": "Only these triggers: api, webhook, schedule, manual, chat"
      },
      "level": {
        "type": "string",
        "description": "Only this level"
      },
      "startDate": {
        "type": "string",
        "description": "ISO time: runs started at or after it"
      },
      "endDate": {
        "type": "string",
        "description": "ISO time: runs started at or before it"
      },
      "executionId": {
        "type": "string",
        "description": "Exact execution id"
      },
      "minDurationMs": {
        "type": "number",
        "description": "Shortest run, in milliseconds"
      },
      "maxDurationMs": {
        "type": "number",
        "description": "Longest run, in milliseconds"
      },
      "minCost": {
        "type": "number",
        "description": "Lowest execution cost"
      },
      "maxCost": {
        "type": "number",
        "description": "Highest execution cost"
      },
      "model": {
        "type": "string",
        "description": "Only runs that used this AI model"
      },
      "limit": {
        "type": "number",
        "description": "Entries per page"
      },
      "cursor": {
        "type": "string",
        "description": "nextCursor of the previous page"
      },
      "order": {
        "type": "string",
        "description": "By start time: desc (newest first) or asc"
      },
      "details": {
        "type": "string",
        "description": "basic, or full (workflow, and the included extras)"
      },
      "includeTraceSpans": {
        "type": "boolean",
        "description": "Add trace spans (deployments honour it with details full)"
      },
      "includeFinalOutput": {
        "type": "boolean",
        "description": "Add the final output (deployments honour it with details full)"
      },
      "followCursor": {
        "type": "boolean",
        "description": "Keep fetching pages and return their entries together"
      },
      "maxPages": {
        "type": "number",
        "description": "With followCursor: stop after this many pages"
      },
      "maxEntries": {
        "type": "number",
        "description": "With followCursor: stop after this many entries"
      },
      "id": {
        "type": "string",
        "description": "Log id, from List logs or a completion notification"
      },
      "method": {
        "type": "string",
        "description": "HTTP method"
      },
      "path": {
        "type": "string",
        "description": "Path under the service's base URL, starting with /"
      },
      "query": {
        "type": "json",
        "description": "Query-string parameters (arrays as repeated keys); never the credential"
      },
      "body": {
        "type": "json",
        "description": "JSON body (POST, PUT, PATCH, DELETE)"
      },
      "headers": {
        "type": "json",
        "description": "Extra request headers, only these: Accept, Accept-Language, Content-Type, Cache-Control, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, X-Request-Id, traceparent, tracestate (a JSON type); never the credential, Range or Accept-Encoding"
      }
    },
    "outputs": {
      "execute": {
        "success": {
          "type": "boolean",
          "description": "Synchronous: the run succeeded. Asynchronous: the job was accepted. Waited: the job completed. Status accepted: the run was accepted, its outcome is in the logs"
        },
        "output": {
          "type": "json",
          "description": "Workflow results (a synchronous run, or a completed job)",
          "optional": true
        },
        "limits": {
          "type": "object",
          "description": "Execution rate-limit state (sync and async buckets) and billing-period usage",
          "optional": true
        },
        "taskId": {
          "type": "string",
          "description": "Asynchronous: the job id to poll with Get job",
          "optional": true
        },
        "status": {
          "type": "string",
          "description": "Asynchronous: queued; waited: completed, failed or cancelled; accepted: a retry found the first attempt accepted (its answer was lost), read the run from the logs by executionId",
          "optional": true
        },
        "executionId": {
          "type": "string",
          "description": "Execution id, when the platform reports it (for Get execution)",
          "optional": true
        },
        "error": {
          "type": "string",
          "description": "Why the run or the job failed",
          "optional": true
        }
      },
      "get_job": {
        "taskId": {
          "type": "string",
          "description": "Job id to poll"
        },
        "status": {
          "type": "string",
          "description": "queued, processing, completed or failed (real deployments also say pending and cancelled)"
        },
        "output": {
          "type": "json",
          "description": "Workflow results; present only when completed",
          "optional": true
        },
        "error": {
          "type": "string",
          "description": "Why the job failed; present only when it failed",
          "optional": true
        }
      },
      "list_logs": {
        "data": {
          "type": "array",
          "description": "Log entries, newest first unless order is asc"
        },
        "nextCursor": {
          "type": "string",
          "description": "Cursor of the next page; null on the last page"
        },
        "limits": {
          "type": "object",
          "description": "Execution rate-limit state (sync and async buckets) and billing-period usage",
          "optional": true
        }
      },
      "get_log": {
        "data": {
          "type": "object",
          "description": "The log detail, with the limits object inside"
        }
      },
      "get_execution": {
        "executionId": {
          "type": "string"
        },
        "workflowId": {
          "type": "string"
        },
        "workflowState": {
          "type": "object",
          "description": "Snapshot of the workflow: blocks, edges, loops, parallels"
        },
        "executionMetadata": {
          "type": "object",
          "description": "Trigger, start and end times, duration and cost"
        },
        "limits": {
          "type": "object",
          "description": "Execution rate-limit state (sync and async buckets) and billing-period usage",
          "optional": true
        }
      },
      "api_call": {
        "status": {
          "type": "number",
          "description": "HTTP status of the 2xx answer"
        },
        "body": {
          "type": "json",
          "description": "The answer: JSON, text, or null when empty"
        }
      }
    },
    "docsUrl": "https://docs.sim.ai/execution/api",
    "catalog": {
      "kind": "productivity",
      "tags": [
        "automation"
      ]
    }
  }
];
