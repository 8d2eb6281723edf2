// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import type { ICredentialDataDecryptedObject, ICredentialTestRequest, ICredentialType, Icon, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

/** How long "Test credential" waits for the service: one cheap GET, with the user at the button. */
const TEST_TIMEOUT_MS = 15000;

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

	/**
	 * The key on every request n8n sends with this credential (the HTTP Request node's too). n8n gives
	 * the "Test credential" request, built from `test` below, 300 s; it waits TEST_TIMEOUT_MS at most.
	 */
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const headers = { ...requestOptions.headers, authorization: `Bearer ${String(credentials.apiKey)}` };
		// Only n8n's credential tester sends the test's path below a baseURL; other requests carry a whole URL.
		if (requestOptions.baseURL === undefined || requestOptions.url !== "/api-key") return { ...requestOptions, headers };
		return { ...requestOptions, headers, timeout: Math.min(requestOptions.timeout ?? TEST_TIMEOUT_MS, TEST_TIMEOUT_MS) };
	}

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
