// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

export class FlowblocksTinybirdApi implements ICredentialType {
	name = "flowblocksTinybirdApi";

	displayName = "Tinybird (Flowblocks) API";

	icon: Icon = {
		light: "file:flowblocksTinybird.svg",
		dark: "file:flowblocksTinybird.dark.svg",
	};

	documentationUrl = "https://www.tinybird.co/docs/api-reference";

	properties: INodeProperties[] = [
		{
			displayName: "Token",
			name: "token",
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
			default: "https://api.tinybird.co",
			required: false,
			placeholder: "https://api.tinybird.co",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: "generic",
		properties: {
			headers: {
				authorization: "=Bearer {{$credentials.token}}",
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: "={{$credentials.baseUrl.replace(/\\/+$/, \"\")}}",
			url: "/v0/pipes",
			method: "GET",
		},
		rules: [
			{
				type: "responseSuccessBody",
				properties: {
					key: "pipes",
					value: undefined,
					message: "The answer is not the Tinybird API's: check the base URL.",
				},
			},
		],
	};
}
