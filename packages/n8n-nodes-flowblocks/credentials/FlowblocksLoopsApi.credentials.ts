// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

export class FlowblocksLoopsApi implements ICredentialType {
	name = "flowblocksLoopsApi";

	displayName = "Loops (Flowblocks) API";

	icon: Icon = {
		light: "file:flowblocksLoops.svg",
		dark: "file:flowblocksLoops.dark.svg",
	};

	documentationUrl = "https://loops.so/docs/api-reference";

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
			default: "https://app.loops.so/api/v1",
			required: false,
			placeholder: "https://app.loops.so/api/v1",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: "generic",
		properties: {
			headers: {
				authorization: "=Bearer {{$credentials.apiKey}}",
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: "={{$credentials.baseUrl.replace(/\\/+$/, \"\")}}",
			url: "/api-key",
			method: "GET",
		},
		rules: [
			{
				type: "responseSuccessBody",
				properties: {
					key: "success",
					value: undefined,
					message: "The answer is not the Loops API's: check the base URL.",
				},
			},
			{
				type: "responseSuccessBody",
				properties: {
					key: "success",
					value: false,
					message: "The Loops API did not accept the credential.",
				},
			},
		],
	};
}
