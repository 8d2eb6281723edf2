// Generated from the flowblocks block definitions by `npm run build:n8n -- --write-sources`: edit the blocks, not this file.
import type { ICredentialDataDecryptedObject, ICredentialTestRequest, ICredentialType, Icon, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

/** How long "Test credential" waits for the service: one cheap GET, with the user at the button. */
const TEST_TIMEOUT_MS = 15000;

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

	/**
	 * The key on every request n8n sends with this credential (the HTTP Request node's too). n8n gives
	 * the "Test credential" request, built from `test` below, 300 s; it waits TEST_TIMEOUT_MS at most.
	 */
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const headers = { ...requestOptions.headers, "X-API-Key": String(credentials.apiKey) };
		// Only n8n's credential tester sends the test's path below a baseURL; other requests carry a whole URL.
		if (requestOptions.baseURL === undefined || requestOptions.url !== "/api/v1/logs") return { ...requestOptions, headers };
		return { ...requestOptions, headers, timeout: Math.min(requestOptions.timeout ?? TEST_TIMEOUT_MS, TEST_TIMEOUT_MS) };
	}

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
