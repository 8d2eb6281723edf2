// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { executeOf } from '../../dist/flowblocks.js';

export class FlowblocksLoops implements INodeType {
	description: INodeTypeDescription = {
		displayName: "Loops (flowblocks)",
		name: "flowblocksLoops",
		icon: "file:flowblocksLoops.svg",
		group: [
			"transform",
		],
		version: 1,
		subtitle: "={{ ({\"create_contact\":\"Create contact\",\"update_contact\":\"Update contact\",\"find_contact\":\"Find contact\",\"delete_contact\":\"Delete contact\",\"send_transactional_email\":\"Send transactional email\",\"send_event\":\"Send event\",\"list_mailing_lists\":\"List mailing lists\",\"list_transactional_emails\":\"List transactional emails\",\"get_transactional_email\":\"Get transactional email\",\"create_contact_property\":\"Create contact property\",\"list_contact_properties\":\"List contact properties\",\"check_contact_suppression\":\"Check contact suppression\",\"remove_contact_suppression\":\"Remove contact suppression\",\"test_api_key\":\"Test API key\",\"list_event_patterns\":\"List event patterns\",\"get_event_pattern\":\"Get event pattern\",\"list_dedicated_sending_ips\":\"List dedicated sending IPs\",\"api_call\":\"Custom API call\"})[$parameter[\"operation\"]] }}",
		description: "Manage contacts, send transactional e-mail and events, and read mailing lists, templates and contact properties in Loops.",
		defaults: {
			name: "Loops",
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
				name: "flowblocksLoopsApi",
				required: true,
			},
		],
		properties: [
			{
				displayName: "Resource",
				name: "resource",
				type: "options",
				noDataExpression: true,
				default: "contact",
				options: [
					{
						name: "Account",
						value: "account",
					},
					{
						name: "API",
						value: "api",
					},
					{
						name: "Contact",
						value: "contact",
					},
					{
						name: "Contact Property",
						value: "contactProperty",
					},
					{
						name: "Event",
						value: "event",
					},
					{
						name: "Mailing List",
						value: "mailingList",
					},
					{
						name: "Transactional Email",
						value: "transactionalEmail",
					},
				],
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "create_contact",
				options: [
					{
						name: "Check Contact Suppression",
						value: "check_contact_suppression",
						description: "Check whether a Loops contact (by exactly one of email or userId) is suppressed after a hard bounce or spam complaint, and how many suppression removals the team has left",
						action: "Check contact suppression",
					},
					{
						name: "Create Contact",
						value: "create_contact",
						description: "Add a new contact to the Loops audience",
						action: "Create contact",
					},
					{
						name: "Delete Contact",
						value: "delete_contact",
						description: "Delete a Loops contact by exactly one of email or userId",
						action: "Delete contact",
					},
					{
						name: "Find Contact",
						value: "find_contact",
						description: "Look up a Loops contact by exactly one of email or userId",
						action: "Find contact",
					},
					{
						name: "Remove Contact Suppression",
						value: "remove_contact_suppression",
						description: "Take a suppressed Loops contact (by exactly one of email or userId) off the suppression list so e-mail reaches it again",
						action: "Remove contact suppression",
					},
					{
						name: "Update Contact",
						value: "update_contact",
						description: "Update a Loops contact found by email or userId, creating it when none matches (upsert)",
						action: "Update contact",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"contact",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "send_transactional_email",
				options: [
					{
						name: "Get Transactional Email",
						value: "get_transactional_email",
						description: "Read one Loops transactional e-mail template by ID: whether it is published, and the names of the data variables its published version uses, so a workflow can check what loops_send_transactional_email needs before sending",
						action: "Get transactional email",
					},
					{
						name: "List Transactional Emails",
						value: "list_transactional_emails",
						description: "List the transactional e-mail templates of the Loops team, one page at a time (perPage 10 to 50, default 20), with each template's ID, whether it is published, and its data-variable names",
						action: "List transactional emails",
					},
					{
						name: "Send Transactional Email",
						value: "send_transactional_email",
						description: "Send a published Loops transactional e-mail template to one recipient, filling its data variables (every required one must be given)",
						action: "Send transactional email",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"transactionalEmail",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "send_event",
				options: [
					{
						name: "Get Event Pattern",
						value: "get_event_pattern",
						description: "Read one Loops event pattern, by its event name (case-sensitive) or its ID, with the event properties workflows read and their types, so loops_send_event can be called with the right eventProperties",
						action: "Get event pattern",
					},
					{
						name: "List Event Patterns",
						value: "list_event_patterns",
						description: "List the event patterns of the Loops team (the event names workflows can be triggered by), one page at a time",
						action: "List event patterns",
					},
					{
						name: "Send Event",
						value: "send_event",
						description: "Send an event for a Loops contact (found by email and/or userId, created when none matches) to trigger the workflows that listen for it",
						action: "Send event",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"event",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "list_mailing_lists",
				options: [
					{
						name: "List Mailing Lists",
						value: "list_mailing_lists",
						description: "List the mailing lists of the Loops team, with their IDs (for the mailingLists param of the contact and event tools)",
						action: "List mailing lists",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"mailingList",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "create_contact_property",
				options: [
					{
						name: "Create Contact Property",
						value: "create_contact_property",
						description: "Create a custom contact property in Loops, so contacts and events can carry it",
						action: "Create contact property",
					},
					{
						name: "List Contact Properties",
						value: "list_contact_properties",
						description: "List the contact properties of the Loops team: all of them (default properties such as firstName included) or only the custom ones, each with its key, label and type",
						action: "List contact properties",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"contactProperty",
						],
					},
				},
			},
			{
				displayName: "Operation",
				name: "operation",
				type: "options",
				noDataExpression: true,
				default: "test_api_key",
				options: [
					{
						name: "List Dedicated Sending IPs",
						value: "list_dedicated_sending_ips",
						description: "List Loops' dedicated sending IP addresses, for the rare allow-list that needs them",
						action: "List dedicated sending IP addresses",
					},
					{
						name: "Test API Key",
						value: "test_api_key",
						description: "Check that a Loops API key is valid and see which team it belongs to",
						action: "Test API key",
					},
				],
				displayOptions: {
					show: {
						resource: [
							"account",
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
						description: "Send one request to an endpoint no other loops tool covers, with the configured credential: the path is under https://app.loops.so/api/v1 (e.g",
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
				displayName: "Email",
				name: "email",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"create_contact",
							"send_transactional_email",
						],
					},
				},
				required: true,
				description: "Contact e-mail address",
				placeholder: "name@email.com",
			},
			{
				displayName: "Subscribed",
				name: "subscribed",
				type: "boolean",
				default: true,
				displayOptions: {
					show: {
						operation: [
							"create_contact",
						],
					},
				},
				description: "Whether to subscribe the contact to campaign and workflow e-mail",
			},
			{
				displayName: "Transactional ID",
				name: "transactionalId",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"send_transactional_email",
							"get_transactional_email",
						],
					},
				},
				required: true,
				description: "ID of the transactional e-mail template (from loops_list_transactional_emails)",
			},
			{
				displayName: "Add to Audience",
				name: "addToAudience",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"send_transactional_email",
						],
					},
				},
				description: "Whether to also create the recipient as a contact if absent",
			},
			{
				displayName: "Event Name",
				name: "eventName",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"send_event",
						],
					},
				},
				required: true,
				description: "Name of the event, e.g. signup",
			},
			{
				displayName: "Per Page",
				name: "perPage",
				type: "string",
				default: "20",
				displayOptions: {
					show: {
						operation: [
							"list_transactional_emails",
							"list_event_patterns",
						],
					},
				},
				description: "Templates per page, 10 to 50",
			},
			{
				displayName: "Name",
				name: "name",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"create_contact_property",
						],
					},
				},
				required: true,
				description: "Property name in camelCase, e.g. planName",
			},
			{
				displayName: "Type",
				name: "type",
				type: "options",
				default: "string",
				displayOptions: {
					show: {
						operation: [
							"create_contact_property",
						],
					},
				},
				options: [
					{
						name: "Boolean",
						value: "boolean",
					},
					{
						name: "Date",
						value: "date",
					},
					{
						name: "Number",
						value: "number",
					},
					{
						name: "String",
						value: "string",
					},
				],
				required: true,
				description: "Value type of the property",
			},
			{
				displayName: "List",
				name: "list",
				type: "options",
				default: "all",
				displayOptions: {
					show: {
						operation: [
							"list_contact_properties",
						],
					},
				},
				options: [
					{
						name: "All",
						value: "all",
					},
					{
						name: "Custom",
						value: "custom",
					},
				],
				description: "All properties, or only custom ones",
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
							"find_contact",
							"list_mailing_lists",
							"list_transactional_emails",
							"list_contact_properties",
							"list_event_patterns",
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
							"find_contact",
							"list_mailing_lists",
							"list_transactional_emails",
							"list_contact_properties",
							"list_event_patterns",
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
							"find_contact",
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
							"update_contact",
						],
					},
				},
				options: [
					{
						displayName: "Custom Properties",
						name: "customProperties",
						type: "json",
						default: "",
						description: "Contact properties by camelCase key (string, number, boolean, or a date as YYYY-MM-DD / ISO string / Unix ms). They must exist in Loops first.",
						placeholder: "{\"planName\":\"Pro\"}",
					},
					{
						displayName: "Email",
						name: "email",
						type: "string",
						default: "",
						description: "Contact e-mail address",
						placeholder: "name@email.com",
					},
					{
						displayName: "First Name",
						name: "firstName",
						type: "string",
						default: "",
					},
					{
						displayName: "Last Name",
						name: "lastName",
						type: "string",
						default: "",
					},
					{
						displayName: "Mailing Lists",
						name: "mailingLists",
						type: "json",
						default: "",
						description: "Mailing-list subscriptions by list ID: true subscribes, false unsubscribes (IDs from loops_list_mailing_lists)",
						placeholder: "{\"cm06f5v0e45nf0ml5754o9cix\":true}",
					},
					{
						displayName: "Source",
						name: "source",
						type: "string",
						default: "",
						description: "Where the contact came from; replaces the default \"API\"",
					},
					{
						displayName: "Subscribed",
						name: "update_contact_subscribed",
						type: "boolean",
						default: false,
						description: "Whether to re-subscribe (true) or unsubscribe (false) the contact; leave out to keep as is",
					},
					{
						displayName: "User Group",
						name: "userGroup",
						type: "string",
						default: "",
						description: "The contact's user group (one per contact)",
					},
					{
						displayName: "User ID",
						name: "userId",
						type: "string",
						default: "",
						description: "Your own unique ID for the contact (userId in Loops)",
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
							"find_contact",
						],
					},
				},
				options: [
					{
						displayName: "Email",
						name: "email",
						type: "string",
						default: "",
						description: "Contact e-mail address",
						placeholder: "name@email.com",
					},
					{
						displayName: "User ID",
						name: "userId",
						type: "string",
						default: "",
						description: "Your own unique ID for the contact (userId in Loops)",
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
							"delete_contact",
						],
					},
				},
				options: [
					{
						displayName: "Email",
						name: "email",
						type: "string",
						default: "",
						description: "Contact e-mail address",
						placeholder: "name@email.com",
					},
					{
						displayName: "User ID",
						name: "userId",
						type: "string",
						default: "",
						description: "Your own unique ID for the contact (userId in Loops)",
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
							"send_event",
						],
					},
				},
				options: [
					{
						displayName: "Email",
						name: "email",
						type: "string",
						default: "",
						description: "Contact e-mail address",
						placeholder: "name@email.com",
					},
					{
						displayName: "Event Properties",
						name: "eventProperties",
						type: "json",
						default: "",
						description: "Event properties for e-mails the event triggers: string, number, boolean, or a date (YYYY-MM-DD / ISO string / Unix ms)",
						placeholder: "{\"plan\":\"pro\"}",
					},
					{
						displayName: "Mailing Lists",
						name: "mailingLists",
						type: "json",
						default: "",
						description: "Mailing-list subscriptions by list ID: true subscribes, false unsubscribes (IDs from loops_list_mailing_lists)",
						placeholder: "{\"cm06f5v0e45nf0ml5754o9cix\":true}",
					},
					{
						displayName: "User ID",
						name: "userId",
						type: "string",
						default: "",
						description: "Your own unique ID for the contact (userId in Loops)",
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
							"check_contact_suppression",
						],
					},
				},
				options: [
					{
						displayName: "Email",
						name: "email",
						type: "string",
						default: "",
						description: "Contact e-mail address",
						placeholder: "name@email.com",
					},
					{
						displayName: "User ID",
						name: "userId",
						type: "string",
						default: "",
						description: "Your own unique ID for the contact (userId in Loops)",
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
							"remove_contact_suppression",
						],
					},
				},
				options: [
					{
						displayName: "Email",
						name: "email",
						type: "string",
						default: "",
						description: "Contact e-mail address",
						placeholder: "name@email.com",
					},
					{
						displayName: "User ID",
						name: "userId",
						type: "string",
						default: "",
						description: "Your own unique ID for the contact (userId in Loops)",
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
							"create_contact",
						],
					},
				},
				options: [
					{
						displayName: "Custom Properties",
						name: "customProperties",
						type: "json",
						default: "",
						description: "Contact properties by camelCase key (string, number, boolean, or a date as YYYY-MM-DD / ISO string / Unix ms). They must exist in Loops first.",
						placeholder: "{\"planName\":\"Pro\"}",
					},
					{
						displayName: "First Name",
						name: "firstName",
						type: "string",
						default: "",
					},
					{
						displayName: "Last Name",
						name: "lastName",
						type: "string",
						default: "",
					},
					{
						displayName: "Mailing Lists",
						name: "mailingLists",
						type: "json",
						default: "",
						description: "Mailing-list subscriptions by list ID: true subscribes, false unsubscribes (IDs from loops_list_mailing_lists)",
						placeholder: "{\"cm06f5v0e45nf0ml5754o9cix\":true}",
					},
					{
						displayName: "Source",
						name: "source",
						type: "string",
						default: "",
						description: "Where the contact came from; replaces the default \"API\"",
					},
					{
						displayName: "User Group",
						name: "userGroup",
						type: "string",
						default: "",
						description: "The contact's user group (one per contact)",
					},
					{
						displayName: "User ID",
						name: "userId",
						type: "string",
						default: "",
						description: "Your own unique ID for the contact (userId in Loops)",
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
							"send_transactional_email",
						],
					},
				},
				options: [
					{
						displayName: "Attachments",
						name: "attachments",
						type: "json",
						default: "",
						description: "Files to attach: {filename, contentType, data (base64)}; attachments must be enabled for the team by Loops support",
						placeholder: "[{\"filename\":\"invoice.pdf\",\"contentType\":\"application/pdf\",\"data\":\"JVBERi0...\"}]",
					},
					{
						displayName: "Data Variables",
						name: "dataVariables",
						type: "json",
						default: "",
						description: "Values for the template's data variables, by case-sensitive name (letters, digits, _ and -): strings or numbers, arrays of objects for array blocks; leave optional ones out or send \"\"",
						placeholder: "{\"name\":\"Alex\",\"resetUrl\":\"https://example.com/reset\"}",
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
							"get_event_pattern",
						],
					},
				},
				options: [
					{
						displayName: "Event Name",
						name: "eventName",
						type: "string",
						default: "",
						description: "Name of the event, e.g. signup",
					},
					{
						displayName: "Event Pattern ID",
						name: "eventPatternId",
						type: "string",
						default: "",
						description: "Event pattern ID, from loops_list_event_patterns",
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
		documentationUrl: "https://loops.so/docs/api-reference",
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Each item through the flowblocks harness: validated params, retries, pacing, secrets masked.
		return await executeOf("loops").call(this);
	}
}
