import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { Transport, TransportResponse } from '../../harness/types.js';

/** What `httpRequest` answers with `returnFullResponse` and a stream body. */
interface FullStreamResponse {
  statusCode: number;
  headers: TransportResponse['headers'];
  body: AsyncIterable<Uint8Array>;
}

/**
 * n8n's own HTTP (`this.helpers.httpRequest`) as the harness's transport: n8n's proxy
 * settings, SSRF rules and trace headers apply to every call, and n8n Cloud's rule that a
 * node reaches the network only through n8n is kept. The answer is taken as a stream
 * whatever its status, so the harness's size cap stops reading; redirects are not followed
 * (as with undici), so a credential header never travels to another host.
 */
export function n8nTransport(helpers: Pick<IExecuteFunctions['helpers'], 'httpRequest'>): Transport {
  return async ({ method, url, headers, body, signal }) => {
    const options: IHttpRequestOptions = {
      method: method as IHttpRequestOptions['method'],
      url,
      headers,
      encoding: 'stream',
      json: false,
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
      disableFollowRedirect: true,
      abortSignal: signal,
    };
    if (body !== undefined) options.body = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const answer = (await helpers.httpRequest(options)) as FullStreamResponse;
    return { status: answer.statusCode, headers: answer.headers, body: answer.body };
  };
}
