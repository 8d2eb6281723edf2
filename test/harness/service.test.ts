import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { runTool } from '../../src/harness/run/execute.js';
import { secretParam, userOnlyParam } from '../../src/harness/define/fields.js';
import { defineConnection, defineService } from '../../src/harness/define/service.js';
import { mockService } from '../helpers/mock-service.js';

/**
 * A connection builds every call of its service: base URL (param, else `options.endpoints`,
 * else the default), credential header; a call with no base URL at all is refused before
 * anything is sent. A service holds only its own connection and tools.
 */
const credential = { param: 'key', schema: secretParam(z.string()), header: 'x-key', env: 'BARE_KEY' };

/** A service with no default base URL and no base URL param: only `options.endpoints.bare` reaches it. */
const bare = defineConnection({ service: 'bare', baseUrl: {}, credential });

/** One with a base URL param and a default. */
const withParam = defineConnection({
  service: 'region',
  baseUrl: { param: 'base_url', schema: userOnlyParam(z.url()), default: 'https://default.region.test/api/', env: 'REGION_URL' },
  credential: { param: 'token', schema: secretParam(z.string()), header: 'authorization', scheme: 'Bearer', env: 'REGION_TOKEN' },
});

/** One with a base URL param and no default. */
const paramOnly = defineConnection({
  service: 'own',
  baseUrl: { param: 'base_url', schema: userOnlyParam(z.url()) },
  credential,
});

const toolParts = {
  name: 'Ping',
  description: 'Ping.',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  output: z.unknown(),
  response: (res: { body: unknown }) => res.body,
};

const barePing = defineTool({
  ...toolParts,
  id: 'bare_ping',
  service: 'bare',
  params: z.object({ key: bare.credential.schema }),
  request: (p, options) => bare.request(p, options, { method: 'GET', path: '/ping' }),
});

const ownPing = defineTool({
  ...toolParts,
  id: 'own_ping',
  service: 'own',
  params: z.object({ base_url: paramOnly.baseUrl.schema, key: paramOnly.credential.schema }).partial({ base_url: true }),
  request: (p, options) => paramOnly.request(p, options, { method: 'GET', path: '/ping' }),
});

describe('a connection without any base URL', () => {
  it('refuses the call before sending, naming the endpoints key to give', async () => {
    const message = 'no base URL for bare: give options.endpoints.bare';
    expect(await runTool(barePing, { key: 'k' })).toMatchObject({
      success: false,
      error: { code: 'invalid_params', message: `invalid params: ${message}`, retryable: false, issues: [{ path: '', message }] },
      meta: { attempts: 0 },
    });
  });

  it('refuses the call before sending, naming its base URL param when it has one', async () => {
    const message = 'no base URL for own: give base_url';
    expect(await runTool(ownPing, { key: 'k' })).toMatchObject({
      success: false,
      error: { code: 'invalid_params', message: `invalid params: ${message}`, issues: [{ path: 'base_url', message }] },
      meta: { attempts: 0 },
    });
  });

  it('reaches the service through options.endpoints', async () => {
    const { agent, on, requests } = mockService('https://bare.mock.test');
    on('GET', '/v2/ping', { status: 200, body: { pong: true } });
    expect(await runTool(barePing, { key: 'k' }, { endpoints: { bare: 'https://bare.mock.test/v2' }, dispatcher: agent })).toMatchObject({
      success: true,
      output: { pong: true },
    });
    expect(requests).toMatchObject([{ path: '/v2/ping', headers: { 'x-key': 'k' } }]);
    await agent.close();
  });
});

describe('connection.resolveBaseUrl', () => {
  it('takes the param, else the endpoints entry, else the default, without trailing slashes', () => {
    expect(withParam.resolveBaseUrl({ base_url: 'https://p.region.test//' }, { endpoints: { region: 'https://e.region.test' } })).toBe('https://p.region.test');
    expect(withParam.resolveBaseUrl({}, { endpoints: { region: 'https://e.region.test/' } })).toBe('https://e.region.test');
    expect(withParam.resolveBaseUrl({}, { endpoints: { other: 'https://o.test' } })).toBe('https://default.region.test/api');
    expect(withParam.resolveBaseUrl({}, {})).toBe('https://default.region.test/api');
  });

  it('uses only string values: an entry of parsed JSON that is no text is passed over', () => {
    const endpoints = { region: 8080 } as unknown as Record<string, string>;
    expect(withParam.resolveBaseUrl({ base_url: ['https://x.test'] }, { endpoints })).toBe('https://default.region.test/api');
  });

  it('uses only the entry of its own service, not one inherited by the endpoints object', () => {
    const endpoints = Object.create({ region: 'https://inherited.test' }) as Record<string, string>;
    expect(withParam.resolveBaseUrl({}, { endpoints })).toBe('https://default.region.test/api');
  });
});

describe('connection.placeBaseUrl: the one rule every host follows', () => {
  it('puts a base URL in the base-URL param when the tools take one, else in endpoints under the service', () => {
    expect(withParam.placeBaseUrl('https://eu.region.test')).toEqual({ params: { base_url: 'https://eu.region.test' } });
    expect(bare.placeBaseUrl('http://127.0.0.1:9/bare')).toEqual({ endpoints: { bare: 'http://127.0.0.1:9/bare' } });
  });

  it('places it where resolveBaseUrl then finds it', () => {
    for (const connection of [withParam, bare, paramOnly]) {
      const placed = connection.placeBaseUrl('https://placed.test/v1/');
      expect(connection.resolveBaseUrl(placed.params ?? {}, { endpoints: placed.endpoints })).toBe('https://placed.test/v1');
    }
  });

  it("names the params a host's credential holds: the credential, and the base-URL param if any", () => {
    expect(withParam.credentialParams).toEqual(['token', 'base_url']);
    expect(bare.credentialParams).toEqual(['key']);
  });
});

describe('connection.defineTool', () => {
  const get = withParam.defineTool({
    id: 'region_get',
    name: 'Get',
    description: 'Read one thing.',
    scopes: [],
    annotations: { readOnly: true, destructive: false, idempotent: true },
    params: z.object({ base_url: userOnlyParam(z.url()).optional(), token: secretParam(z.string()), id: z.string() }),
    output: z.object({ id: z.string() }),
    request: (p) => ({ method: 'GET', path: `/things/${p.id}`, query: { full: 'true' } }),
    response: ({ body }) => body as { id: string },
  });

  it("gives the tool its connection's service", () => {
    expect(get.service).toBe('region');
  });

  it('makes the call whole: the base URL before the path, the credential with its scheme, the pacing', () => {
    const spec = get.request({ base_url: 'https://eu.region.test/', token: 'tk', id: 't1' }, {});
    expect(spec).toMatchObject({ method: 'GET', url: 'https://eu.region.test/things/t1', query: { full: 'true' }, headers: { authorization: 'Bearer tk' } });
    // Without its param, the base URL comes from the caller's endpoints, then the default.
    expect(get.request({ token: 'tk', id: 't1' }, { endpoints: { region: 'http://127.0.0.1:9/r' } }).url).toBe('http://127.0.0.1:9/r/things/t1');
    expect(get.request({ token: 'tk', id: 't1' }, {}).url).toBe('https://default.region.test/api/things/t1');
  });
});

describe('connection.request', () => {
  it('puts the credential, with its scheme, before the call’s own headers', () => {
    const spec = withParam.request({ base_url: 'https://p.region.test/', token: 't' }, {}, { method: 'GET', path: '/x', headers: { a: 'b' } });
    expect(spec).toMatchObject({ method: 'GET', url: 'https://p.region.test/x', headers: { authorization: 'Bearer t', a: 'b' }, pacing: undefined });
    expect(Object.keys(spec.headers!)).toEqual(['authorization', 'a']);
  });

  it('sends no made-up credential when the params hold none: the header has the scheme alone', () => {
    expect(withParam.request({}, {}, { method: 'GET', path: '/x' }).headers).toEqual({ authorization: 'Bearer ' });
    expect(bare.request({}, { endpoints: { bare: 'https://b.test' } }, { method: 'GET', path: '/x' }).headers).toEqual({ 'x-key': '' });
  });
});

describe('defineService', () => {
  const base = { name: 'Bare', description: 'd', icon: '<svg/>', color: '#000' };

  it('refuses a connection of another service', () => {
    expect(() => defineService({ ...base, id: 'other', connection: bare, tools: [] })).toThrow(new Error('service other: its connection is for bare'));
  });

  it('refuses a tool of another service', () => {
    expect(() => defineService({ ...base, id: 'bare', connection: bare, tools: [barePing, { ...barePing, id: 'x_ping', service: 'x' }] })).toThrow(
      new Error('service bare: tool x_ping belongs to x'),
    );
  });

  it('lists the environment variables of its settings', () => {
    // Strict: a service without a base URL setting has no `base_url` key at all (the agents list each key as a setting).
    expect(defineService({ ...base, id: 'bare', connection: bare, tools: [barePing] }).env).toStrictEqual({ key: 'BARE_KEY' });
    expect(defineService({ ...base, id: 'region', connection: withParam, tools: [] }).env).toStrictEqual({ token: 'REGION_TOKEN', base_url: 'REGION_URL' });
  });
});
