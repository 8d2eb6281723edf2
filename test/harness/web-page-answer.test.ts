/**
 * A base URL that is not the API but another web app answering 200 with a page (the n8n editor,
 * a login page): every tool fails with one short line, never handing the page on as data or
 * carrying it in a message, whichever client sent the request.
 */
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { isWebPage } from '../../src/harness/send/decode-body.js';
import type { Transport, TransportRequest } from '../../src/harness/types.js';
import { mockService } from '../helpers/mock-service.js';

const APP = 'http://editor.test';
const TOKEN = 'p.web-page-token-0001';
const page = `<!doctype html><html><head><title>n8n.io - Workflow Automation</title></head><body>${'<div id="app"></div>'.repeat(500)}</body></html>`;
const webPage = "invalid_response: the answer is a web page (text/html), not the service's API: check the base URL";

describe('a 2xx web page at the base URL', () => {
  it("fails Tinybird's query (which hands text formats on as data) instead of returning the page", async () => {
    const svc = mockService(APP);
    svc.on('POST', '/v0/sql', { status: 200, body: page, headers: { 'content-type': 'text/html; charset=utf-8' } });
    const result = await executeTool('tinybird_query', { token: TOKEN, base_url: APP, query: 'SELECT 1 AS one FORMAT JSON' }, { dispatcher: svc.agent });
    expect(svc.requests).toEqual([
      expect.objectContaining({ method: 'POST', path: '/v0/sql', query: {}, headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}` }), body: 'q=SELECT+1+AS+one+FORMAT+JSON' }),
    ]);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_response', status: 200, retryable: false }, meta: { attempts: 1 } });
    expect(result.success || `${result.error.code}: ${result.error.message}`).toBe(webPage);
    expect(JSON.stringify(result)).not.toMatch(/doctype|<div|n8n\.io/i);
  });

  it('fails a Loops call sent through a host transport (as in n8n) with the same line', async () => {
    const requests: TransportRequest[] = [];
    const transport: Transport = async (request) => {
      requests.push(request);
      return { status: 200, headers: { 'content-type': 'application/xhtml+xml' }, body: new TextEncoder().encode(page) };
    };
    const result = await executeTool('loops_test_api_key', { apiKey: 'loops-web-page-key-01' }, { transport, endpoints: { loops: `${APP}/api/v1` } });
    expect(requests).toEqual([expect.objectContaining({ method: 'GET', url: `${APP}/api/v1/api-key`, headers: expect.objectContaining({ authorization: 'Bearer loops-web-page-key-01' }) })]);
    expect(result.success || `${result.error.code}: ${result.error.message}`).toBe(webPage);
    expect(JSON.stringify(result)).not.toContain('<div');
  });

  it('keeps an API answer with a text type, and names an error page by its status without quoting it', async () => {
    const svc = mockService(APP);
    svc.on('POST', '/v0/sql', { status: 200, body: 'one\n1\n', headers: { 'content-type': 'text/csv' } }, { status: 502, body: '<h1>502 Bad Gateway</h1>', headers: { 'content-type': 'text/html' } });
    const csv = await executeTool('tinybird_query', { token: TOKEN, base_url: APP, query: 'SELECT 1 AS one FORMAT CSVWithNames' }, { dispatcher: svc.agent });
    expect(csv).toMatchObject({ success: true, output: { data: 'one\n1\n' } });
    const bad = await executeTool('tinybird_query', { token: TOKEN, base_url: APP, query: 'SELECT 1' }, { dispatcher: svc.agent, retry: false });
    expect(bad).toMatchObject({ success: false, error: { code: 'upstream_error', status: 502, message: expect.stringMatching(/^HTTP 502: the answer is a web page/) } });
    expect(JSON.stringify(bad)).not.toContain('<h1>');
  });

  it("reads the content type's media type whole, whatever its case and parameters", () => {
    expect(['text/html', 'TEXT/HTML; charset=UTF-8', ' text/html ;q=1', 'application/xhtml+xml'].map(isWebPage)).toEqual([true, true, true, true]);
    expect(['text/htmlx', 'text/plain', 'application/json', 'text/html-sandboxed', '', undefined].map(isWebPage)).toEqual([false, false, false, false, false, false]);
  });
});
