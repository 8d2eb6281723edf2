// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { executeOf, methodsOf } from '../../lib/flowblocks';

export class FlowblocksLoops implements INodeType {
	description: INodeTypeDescription = {
		displayName: "Loops (flowblocks)",
		name: "flowblocksLoops",
		icon: {
			light: "file:flowblocksLoops.svg",
			dark: "file:flowblocksLoops.dark.svg",
		},
		group: [
			"transform",
		],
		version: 1,
		subtitle: "={{ ({\"createContact\":\"Create contact\",\"updateContact\":\"Update contact\",\"findContact\":\"Find contact\",\"deleteContact\":\"Delete contact\",\"sendTransactionalEmail\":\"Send transactional email\",\"sendEvent\":\"Send event\",\"listMailingLists\":\"List mailing lists\",\"listTransactionalEmails\":\"List transactional emails\",\"getTransactionalEmail\":\"Get transactional email\",\"createContactProperty\":\"Create contact property\",\"listContactProperties\":\"List contact properties\",\"checkContactSuppression\":\"Check contact suppression\",\"removeContactSuppression\":\"Remove contact suppression\",\"testApiKey\":\"Test API key\",\"listEventPatterns\":\"List event patterns\",\"getEventPattern\":\"Get event pattern\",\"listDedicatedSendingIps\":\"List dedicated sending IPs\"})[$parameter[\"operation\"]] }}",
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
				default: "createContact",
				options: [
					{
						name: "Check Suppression",
						value: "checkContactSuppression",
						description: "Check whether a Loops contact (by exactly one of email or userId) is suppressed after a hard bounce or spam complaint, and how many suppression removals the team has left",
						action: "Check contact suppression",
					},
					{
						name: "Create",
						value: "createContact",
						description: "Add a new contact to the Loops audience",
						action: "Create contact",
					},
					{
						name: "Delete",
						value: "deleteContact",
						description: "Delete a Loops contact by exactly one of email or userId",
						action: "Delete contact",
					},
					{
						name: "Find",
						value: "findContact",
						description: "Look up a Loops contact by exactly one of email or userId",
						action: "Find contact",
					},
					{
						name: "Remove Suppression",
						value: "removeContactSuppression",
						description: "Take a suppressed Loops contact (by exactly one of email or userId) off the suppression list so e-mail reaches it again",
						action: "Remove contact suppression",
					},
					{
						name: "Update",
						value: "updateContact",
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
				default: "sendTransactionalEmail",
				options: [
					{
						name: "Get",
						value: "getTransactionalEmail",
						description: "Read one Loops transactional e-mail template by ID: whether it is published, and the names of the data variables its published version uses, so a workflow can check what loops_send_transactional_email needs before sending",
						action: "Get transactional email",
					},
					{
						name: "Get Many",
						value: "listTransactionalEmails",
						description: "List the transactional e-mail templates of the Loops team, one page at a time (perPage 10 to 50, default 20), with each template's ID, whether it is published, and its data-variable names",
						action: "Get many transactional emails",
					},
					{
						name: "Send",
						value: "sendTransactionalEmail",
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
				default: "sendEvent",
				options: [
					{
						name: "Get Many Patterns",
						value: "listEventPatterns",
						description: "List the event patterns of the Loops team (the event names workflows can be triggered by), one page at a time",
						action: "Get many event patterns",
					},
					{
						name: "Get Pattern",
						value: "getEventPattern",
						description: "Read one Loops event pattern, by its event name (case-sensitive) or its ID, with the event properties workflows read and their types, so loops_send_event can be called with the right eventProperties",
						action: "Get event pattern",
					},
					{
						name: "Send",
						value: "sendEvent",
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
				default: "listMailingLists",
				options: [
					{
						name: "Get Many",
						value: "listMailingLists",
						description: "List the mailing lists of the Loops team, with their IDs (for the mailingLists param of the contact and event tools)",
						action: "Get many mailing lists",
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
				default: "createContactProperty",
				options: [
					{
						name: "Create",
						value: "createContactProperty",
						description: "Create a custom contact property in Loops, so contacts and events can carry it",
						action: "Create contact property",
					},
					{
						name: "Get Many",
						value: "listContactProperties",
						description: "List the contact properties of the Loops team: all of them (default properties such as firstName included) or only the custom ones, each with its key, label and type",
						action: "Get many contact properties",
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
				default: "testApiKey",
				options: [
					{
						name: "Get Many Dedicated Sending IPs",
						value: "listDedicatedSendingIps",
						description: "List Loops' dedicated sending IP addresses, for the rare allow-list that needs them",
						action: "Get many dedicated sending IP addresses",
					},
					{
						name: "Test API Key",
						value: "testApiKey",
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
				displayName: "Email",
				name: "email",
				type: "string",
				default: "",
				displayOptions: {
					show: {
						operation: [
							"createContact",
							"sendTransactionalEmail",
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
							"createContact",
						],
					},
				},
				description: "Whether to subscribe the contact to campaign and workflow e-mail",
			},
			{
				displayName: "Transactional ID",
				name: "transactionalId",
				type: "resourceLocator",
				default: {
					mode: "list",
					value: "",
				},
				displayOptions: {
					show: {
						operation: [
							"sendTransactionalEmail",
							"getTransactionalEmail",
						],
					},
				},
				required: true,
				description: "ID of the transactional e-mail template (from loops_list_transactional_emails)",
				modes: [
					{
						displayName: "From List",
						name: "list",
						type: "list",
						placeholder: "Select a Transactional ID...",
						typeOptions: {
							searchListMethod: "searchTransactionalId",
							searchable: true,
						},
					},
					{
						displayName: "By ID",
						name: "id",
						type: "string",
						placeholder: "e.g. cm1a2b3c4d",
					},
				],
			},
			{
				displayName: "Add to Audience",
				name: "addToAudience",
				type: "boolean",
				default: false,
				displayOptions: {
					show: {
						operation: [
							"sendTransactionalEmail",
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
							"sendEvent",
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
							"listTransactionalEmails",
							"listEventPatterns",
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
							"createContactProperty",
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
							"createContactProperty",
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
							"listContactProperties",
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
				displayName: "Return All",
				name: "returnAll",
				type: "boolean",
				default: false,
				description: "Whether to return all results or only up to a given limit",
				displayOptions: {
					show: {
						operation: [
							"findContact",
							"listMailingLists",
							"listTransactionalEmails",
							"listContactProperties",
							"listEventPatterns",
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
							"findContact",
							"listMailingLists",
							"listTransactionalEmails",
							"listContactProperties",
							"listEventPatterns",
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
							"findContact",
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
							"updateContact",
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
						name: "updateContactSubscribed",
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
							"findContact",
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
							"deleteContact",
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
							"sendEvent",
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
							"checkContactSuppression",
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
							"removeContactSuppression",
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
							"createContact",
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
							"sendTransactionalEmail",
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
							"getEventPattern",
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
		],
		documentationUrl: "https://loops.so/docs/api-reference",
	};

	methods = {
		listSearch: {
			searchTransactionalId: methodsOf("loops").listSearch!.searchTransactionalId!,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Each item through the flowblocks harness: validated params, retries, pacing, secrets masked.
		return await executeOf("loops").call(this);
	}
}
