// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import type { ICredentialDataDecryptedObject, ICredentialTestRequest, ICredentialType, Icon, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

/** How long "Test credential" waits for the service: one cheap GET, with the user at the button. */
const TEST_TIMEOUT_MS = 15000;

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

	/**
	 * The key on every request n8n sends with this credential (the HTTP Request node's too). n8n gives
	 * the "Test credential" request, built from `test` below, 300 s; it waits TEST_TIMEOUT_MS at most.
	 */
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const headers = { ...requestOptions.headers, authorization: `Bearer ${String(credentials.token)}` };
		// Only n8n's credential tester sends the test's path below a baseURL; other requests carry a whole URL.
		if (requestOptions.baseURL === undefined || requestOptions.url !== "/v0/pipes") return { ...requestOptions, headers };
		return { ...requestOptions, headers, timeout: Math.min(requestOptions.timeout ?? TEST_TIMEOUT_MS, TEST_TIMEOUT_MS) };
	}

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
