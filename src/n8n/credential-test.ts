/**
 * n8n's "Test credential" for a service whose cheap check accepts more than 2xx (the workflow
 * platform's GET of a job that cannot exist: 404 once the key is accepted). n8n's declarative
 * `test` counts every status but 2xx as a failure, and its `rules` can only add failures, so
 * such a check runs as the node's `methods.credentialTest`, through n8n's own HTTP helper.
 */
import type { ICredentialTestFunction, IDataObject, INodeCredentialTestResult } from 'n8n-workflow';
import { Redactor } from '../harness/redact.js';
import type { Service } from '../harness/service.js';

/** How long the test waits for the service: n8n's button has no limit of its own. */
const CHECK_TIMEOUT_MS = 15_000;

const TRAILING_SLASHES = /\/+$/;

/** The verdict on the check's status: accepted, rejected (401/403), or not known. */
export function credentialVerdict(status: number, accepts: readonly number[]): INodeCredentialTestResult {
  if ((status >= 200 && status < 300) || accepts.includes(status)) return { status: 'OK', message: 'The service accepted the credential.' };
  if (status === 401 || status === 403) return { status: 'Error', message: `The service rejected the credential (HTTP ${status}). Check the key and try again.` };
  return {
    status: 'Error',
    message: `The service answered HTTP ${status}, so the credential could not be verified. Check the base URL.`,
  };
}

/** The node's credential test for `service` (its `credential.check`), or undefined when it has no check. */
export function credentialTestOf(service: Service): ICredentialTestFunction | undefined {
  const { baseUrl, credential } = service.connection;
  const { check, checkAccepts = [], header, scheme, param } = credential;
  if (!check) return undefined;
  return async function test(this, decrypted): Promise<INodeCredentialTestResult> {
    const data: IDataObject = decrypted.data ?? {};
    const key = typeof data[param] === 'string' ? data[param] : '';
    const given = typeof data.baseUrl === 'string' && data.baseUrl !== '' ? data.baseUrl : baseUrl.default;
    if (!key) return { status: 'Error', message: `The credential has no ${param}.` };
    if (!given || !URL.canParse(given)) return { status: 'Error', message: 'The base URL is not a URL.' };
    try {
      const response = (await this.helpers.request({
        method: 'GET',
        uri: `${given.replace(TRAILING_SLASHES, '')}${check}`,
        headers: { [header]: scheme ? `${scheme} ${key}` : key, accept: 'application/json' },
        // Every status is an answer here: the verdict is read from it.
        simple: false,
        resolveWithFullResponse: true,
        timeout: CHECK_TIMEOUT_MS,
      })) as { statusCode: number };
      return credentialVerdict(response.statusCode, checkAccepts);
    } catch (error) {
      // No answer (refused, DNS, time-out): the reason, never the key.
      const reason = error instanceof Error ? error.message : String(error);
      return { status: 'Error', message: `The service could not be reached: ${new Redactor([key]).text(reason)}` };
    }
  };
}
