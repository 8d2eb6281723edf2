/**
 * Issue 43 item 7: "Test credential" has a time limit of its own. n8n's RoutingNode gives the
 * test request `timeout: 300_000` whatever the credential asks; the credential's `authenticate`,
 * which n8n calls on that request after it is built, bounds it to CREDENTIAL_TEST_TIMEOUT_MS. Every
 * other request n8n sends with the credential (the HTTP Request node's "Custom API Call", an AI
 * tool's) keeps its own timeout, and each gets the key in the service's header. Checked on the
 * function `flowblocks/n8n` gives and on the credential classes the package ships.
 */
import { join } from 'node:path';
import type { ICredentialDataDecryptedObject, ICredentialType, IHttpRequestOptions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_TEST_TIMEOUT_MS } from '../../src/hosts/n8n/credential-authenticate.js';
import { toN8nNode } from '../../src/hosts/n8n/index.js';
import { getBlock } from '../../src/index.js';

type Authenticate = (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions) => Promise<IHttpRequestOptions>;

/** n8n's default for a request with no timeout of its own (RoutingNode, the HTTP Request node). */
const N8N_DEFAULT_TIMEOUT_MS = 300_000;

/**
 * A committed credential class of the package, as vitest compiles it (a path the type check does
 * not follow: the sources are typed by the package's own build, not this repository's tsconfig).
 */
async function shippedClass(name: string): Promise<new () => ICredentialType> {
  const file = join(import.meta.dirname, '../../packages/n8n-nodes-flowblocks/credentials', `${name}.credentials.ts`);
  return ((await import(file)) as Record<string, new () => ICredentialType>)[name]!;
}

const services: { type: string; shipped: string; credentials: { baseUrl: string } & Record<string, string>; header: Record<string, string>; path: string }[] = [
  { type: 'tinybird', shipped: 'FlowblocksTinybirdApi', credentials: { token: 'p.secret', baseUrl: 'https://api.tinybird.co' }, header: { authorization: 'Bearer p.secret' }, path: '/v0/pipes' },
  { type: 'loops', shipped: 'FlowblocksLoopsApi', credentials: { apiKey: 'loops-secret', baseUrl: 'https://app.loops.so/api/v1' }, header: { authorization: 'Bearer loops-secret' }, path: '/api-key' },
  { type: 'workflow', shipped: 'FlowblocksWorkflowApi', credentials: { apiKey: 'wf-secret', baseUrl: 'https://sim.example' }, header: { 'X-API-Key': 'wf-secret' }, path: '/api/v1/logs' },
];

/** The credential's `authenticate` as n8n calls it: `credentialType.authenticate(credentials, requestOptions)`. */
function authenticateOf(credential: ICredentialType): Authenticate {
  expect(typeof credential.authenticate).toBe('function');
  return (credentials, requestOptions) => (credential.authenticate as Authenticate).call(credential, credentials, requestOptions);
}

/** The request n8n's credential tester builds from the credential's `test` (routing-node.js: `qs`, `body`, `headers`, then its 300 s). */
function testRequestOf(credential: ICredentialType, baseUrl: string): IHttpRequestOptions {
  const { request } = credential.test!;
  return { ...(request as IHttpRequestOptions), baseURL: baseUrl, url: request.url!, qs: {}, body: {}, headers: {}, returnFullResponse: true, timeout: N8N_DEFAULT_TIMEOUT_MS };
}

for (const { type, shipped, credentials, header, path } of services) {
  const built = toN8nNode(getBlock(type)!).credential;
  for (const [which, credential] of [['flowblocks/n8n', built], ['the shipped class', new (await shippedClass(shipped))()]] as const) {
    describe(`${type} credential (${which}): authenticate`, () => {
      const authenticate: Authenticate = (c, r) => authenticateOf(credential)(c, r);

      it(`bounds the "Test credential" request to ${CREDENTIAL_TEST_TIMEOUT_MS} ms and sends the key`, async () => {
        const request = testRequestOf(credential, credentials.baseUrl);
        expect(request.url).toBe(path);
        const sent = await authenticate(credentials, request);
        expect(sent).toEqual({ ...request, headers: header, timeout: CREDENTIAL_TEST_TIMEOUT_MS });
        // n8n's own request is left as it was built: the credential answers with a copy.
        expect(request.timeout).toBe(N8N_DEFAULT_TIMEOUT_MS);
        expect(request.headers).toEqual({});
      });

      it('keeps a test time limit shorter than its own', async () => {
        const sent = await authenticate(credentials, { ...testRequestOf(credential, credentials.baseUrl), timeout: 2_000 });
        expect(sent.timeout).toBe(2_000);
      });

      it("leaves the time limit of every other request: the HTTP Request node's, a tool's, another path", async () => {
        const whole = `${credentials.baseUrl}${path}`;
        // The HTTP Request node's "Custom API Call" (its legacy `uri`), with n8n's default or the user's timeout.
        const httpNode = { method: 'GET', uri: whole, headers: { accept: 'application/json' }, timeout: N8N_DEFAULT_TIMEOUT_MS } as unknown as IHttpRequestOptions;
        expect(await authenticate(credentials, httpNode)).toEqual({ ...httpNode, headers: { accept: 'application/json', ...header } });
        const tool: IHttpRequestOptions = { method: 'GET', url: whole, timeout: 600_000 };
        expect(await authenticate(credentials, tool)).toEqual({ ...tool, headers: header });
        const otherPath: IHttpRequestOptions = { method: 'POST', baseURL: credentials.baseUrl, url: `${path}/x`, body: { a: 1 }, timeout: N8N_DEFAULT_TIMEOUT_MS };
        expect(await authenticate(credentials, otherPath)).toEqual({ ...otherPath, headers: header });
        const noTimeout: IHttpRequestOptions = { method: 'GET', url: whole };
        expect(await authenticate(credentials, noTimeout)).toEqual({ ...noTimeout, headers: header });
      });
    });
  }
}
