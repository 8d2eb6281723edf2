/**
 * A credential's `authenticate` as a function, which n8n calls on every request it sends with the
 * credential (its "Test credential" button's, the HTTP Request node's) after the request is built.
 * It puts the key in the service's header, and gives the test request a time limit of its own:
 * n8n's RoutingNode sets that request's `timeout` to 300 s whatever the credential's `test` says.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';
import type { Connection } from '../../harness/define/service.js';

/** How long "Test credential" waits for the service: one cheap GET, with the user at the button. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

export interface CredentialHeader {
  /** The header the key travels in (`authorization`). */
  header: string;
  /** Put before the key (`Bearer`). */
  scheme?: string;
  /** The credential's field that holds the key (`apiKey`). */
  param: string;
  /** The credential test's path below the base URL (`/api-key`): only n8n's tester sends it so. */
  testUrl?: string;
}

/** A service's credential header and test path, as its connection declares them. */
export function credentialHeaderOf({ credential }: Connection): CredentialHeader {
  const { header, scheme, param, check } = credential;
  return { header, scheme, param, testUrl: check };
}

/**
 * Whether n8n built this request from the credential's `test`: its path below a `baseURL`. n8n's
 * other requests with the credential carry a whole URL (the HTTP Request node's `uri`, a tool's
 * `url`); the nodes of this package send theirs through `httpRequest`, which never calls this.
 */
export function isCredentialTestRequest(requestOptions: IHttpRequestOptions, testUrl: string | undefined): boolean {
  return testUrl !== undefined && requestOptions.baseURL !== undefined && requestOptions.url === testUrl;
}

export function credentialAuthenticate({ header, scheme, param, testUrl }: CredentialHeader) {
  const prefix = scheme ? `${scheme} ` : '';
  return async (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> => {
    const headers = { ...requestOptions.headers, [header]: `${prefix}${String(credentials[param])}` };
    if (!isCredentialTestRequest(requestOptions, testUrl)) return { ...requestOptions, headers };
    return { ...requestOptions, headers, timeout: Math.min(requestOptions.timeout ?? CREDENTIAL_TEST_TIMEOUT_MS, CREDENTIAL_TEST_TIMEOUT_MS) };
  };
}
