// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

export class FlowblocksWorkflowApi implements ICredentialType {
	name = "flowblocksWorkflowApi";

	displayName = "Workflow (Flowblocks) API";

	icon: Icon = {
		light: "file:flowblocksWorkflow.svg",
		dark: "file:flowblocksWorkflow.dark.svg",
	};

	documentationUrl = "https://docs.sim.ai/execution/api";

	properties: INodeProperties[] = [
		{
			displayName: "API Key",
			name: "apiKey",
			type: "string",
			typeOptions: {
				password: true,
			},
			default: "",
			required: true,
		},
		{
			displayName: "Base URL",
			name: "baseUrl",
			type: "string",
			default: "",
			required: true,
			placeholder: "https://…",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: "generic",
		properties: {
			headers: {
				"X-API-Key": "={{$credentials.apiKey}}",
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: "={{$credentials.baseUrl.replace(/\\/+$/, \"\")}}",
			url: "/api/v1/logs",
			method: "GET",
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: "responseSuccessBody",
				properties: {
					key: "details",
					value: undefined,
					message: "The Workflow API did not accept the credential, or the base URL is not its API (an accepted key gets an answer with \"details\"). Check both.",
				},
			},
		],
	};
}
