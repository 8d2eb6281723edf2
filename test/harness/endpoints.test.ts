import { afterEach, describe, expect, it } from 'vitest';
import { endpointIssues } from '../../src/harness/run/endpoints.js';
import { executeTool, listServices } from '../../src/index.js';
import { mockService } from '../helpers/mock-service.js';

/**
 * `options.endpoints` sends a service's calls elsewhere (a mock, a proxy, a region). A name that
 * is no service's, or a value that is not an http(s) URL text, is refused before any request:
 * either would otherwise send the call to the real service with the caller's credential.
 */
const ORIGIN = 'https://loops.mock.test';
const PARAMS = { apiKey: 'key-1', email: 'a@example.com' };
const ANSWER = { contact: { id: 'c1', email: 'a@example.com', userId: null }, isSuppressed: false, removalQuota: { limit: 10, remaining: 9 } };

let closeAgent: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeAgent?.();
  closeAgent = undefined;
});

function service() {
  const mock = mockService(ORIGIN);
  closeAgent = () => mock.agent.close();
  return mock;
}

describe('executeTool with options.endpoints', () => {
  it('sends the call to the endpoint given for its service', async () => {
    const { agent, on, requests } = service();
    on('GET', '/v1/contacts/suppression', { status: 200, body: ANSWER });
    const result = await executeTool('loops_check_contact_suppression', PARAMS, { endpoints: { loops: `${ORIGIN}/v1/` }, dispatcher: agent });
    expect(result).toMatchObject({ success: true, output: { isSuppressed: false } });
    expect(requests.map((r) => r.path)).toEqual(['/v1/contacts/suppression']);
  });

  it('refuses a name that is no service, naming the known ones, before any request', async () => {
    const { agent, requests } = service();
    const known = listServices().map((s) => s.id);
    expect(known).toContain('loops');
    const message = `no service named "loop" (known: ${known.join(', ')})`;
    const result = await executeTool('loops_check_contact_suppression', PARAMS, { endpoints: { loop: ORIGIN }, dispatcher: agent });
    expect(result).toEqual({
      success: false,
      error: { code: 'invalid_params', message: `invalid options: endpoints.loop: ${message}`, retryable: false, issues: [{ path: 'endpoints.loop', message }] },
      meta: { attempts: 0, durationMs: 0 },
    });
    expect(requests).toEqual([]);
  });

  it('refuses a URL object (not a URL text) instead of falling back to the real service', async () => {
    const { agent, requests } = service();
    const endpoints = { loops: new URL(ORIGIN) } as unknown as Record<string, string>;
    const result = await executeTool('loops_check_contact_suppression', PARAMS, { endpoints, dispatcher: agent });
    expect(result).toMatchObject({
      success: false,
      error: {
        code: 'invalid_params',
        message: `invalid options: endpoints.loops: not an http(s) URL: "${ORIGIN}/"`,
        issues: [{ path: 'endpoints.loops', message: `not an http(s) URL: "${ORIGIN}/"` }],
      },
      meta: { attempts: 0 },
    });
    expect(requests).toEqual([]);
  });

  it.each([['ftp://loops.mock.test'], ['loops.mock.test'], ['']])('refuses %j, which is no http(s) URL', async (url) => {
    const { agent, requests } = service();
    const result = await executeTool('loops_check_contact_suppression', PARAMS, { endpoints: { loops: url }, dispatcher: agent });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', issues: [{ path: 'endpoints.loops', message: `not an http(s) URL: ${JSON.stringify(url)}` }] },
    });
    expect(requests).toEqual([]);
  });
});

describe('endpointIssues (the CLI checks --endpoint pairs with it)', () => {
  it('has nothing to say about no endpoints, or good ones', () => {
    expect(endpointIssues(undefined, ['loops'])).toEqual([]);
    expect(endpointIssues({ loops: 'http://127.0.0.1:4100/loops', tinybird: 'https://api.tinybird.co' }, ['loops', 'tinybird'])).toEqual([]);
  });

  it('names an unknown service once, without also judging its URL', () => {
    expect(endpointIssues({ tinybrid: 'nope', loops: 'also nope' }, ['loops', 'tinybird'])).toEqual([
      { path: 'endpoints.tinybrid', message: 'no service named "tinybrid" (known: loops, tinybird)' },
      { path: 'endpoints.loops', message: 'not an http(s) URL: "also nope"' },
    ]);
  });

  it('without a list of services, checks only the URLs', () => {
    expect(endpointIssues({ anything: 'https://x.example', other: 42 })).toEqual([{ path: 'endpoints.other', message: 'not an http(s) URL: 42' }]);
  });

  it('judges the same URL text the same way every time (the check is cached)', () => {
    for (let i = 0; i < 3; i++) {
      expect(endpointIssues({ loops: 'mailto:a@example.com' })).toEqual([{ path: 'endpoints.loops', message: 'not an http(s) URL: "mailto:a@example.com"' }]);
      expect(endpointIssues({ loops: 'not a url' })).toEqual([{ path: 'endpoints.loops', message: 'not an http(s) URL: "not a url"' }]);
      expect(endpointIssues({ loops: 'HTTPS://LOOPS.example' })).toEqual([]);
    }
  });
});
