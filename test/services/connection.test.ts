import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineBlock, executeTool, listBlocks, runTool } from '../../src/index.js';
import { defineConnection, defineService, defineTool, secretParam, userOnlyParam } from '../../src/kit.js';
import { endpointConnection, endpointServiceOf } from '../../src/satellites/preview/connection.js';

const JSON_TYPE = { headers: { 'content-type': 'application/json' } };

describe('wire checks name the service fields', () => {
  it('reports the inner fields of a union branch (a FORMAT JSON answer of the wrong shape)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://tb.example')
      .intercept({ method: 'POST', path: '/v0/sql' })
      .reply(200, { data: [1], meta: [], rows: 'two', statistics: { elapsed: 0, rows_read: 0, bytes_read: 0 } }, JSON_TYPE);
    const result = await executeTool('tinybird_query', { base_url: 'https://tb.example', token: 't', query: 'SELECT 1 FORMAT JSON' }, { dispatcher: agent });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_response', status: 200, issues: [{ path: 'data.0', message: 'a row is a JSON object' }, { path: 'rows' }] },
    });
    expect(!result.success && result.error.message).toMatch(/^the service answered with an unexpected shape: data\.0: a row is a JSON object; rows: /);
    await agent.close();
  });
});

describe('a connection', () => {
  const bare = defineConnection({
    service: 'bare',
    baseUrl: {},
    credential: { param: 'key', schema: secretParam(z.string()), header: 'x-key', env: 'BARE_KEY' },
  });
  const ping = defineTool({
    id: 'bare_ping',
    name: 'Ping',
    description: 'Ping.',
    scopes: [],
    annotations: { readOnly: true, destructive: false, idempotent: true },
    service: 'bare',
    params: z.object({ key: bare.credential.schema }),
    output: z.unknown(),
    request: (p, options) => bare.request(p, options, { method: 'GET', path: '/ping' }),
    response: (res) => res.body,
  });

  it('without a base URL of any kind refuses the call before sending, naming the endpoints key', async () => {
    expect(await runTool(ping, { key: 'k' })).toMatchObject({
      success: false,
      error: { code: 'invalid_params', message: 'invalid params: no base URL for bare: give options.endpoints.bare', issues: [{ path: '' }] },
      meta: { attempts: 0 },
    });
  });

  it('joins its base URL param and the path, and puts the credential with its scheme', () => {
    const withParam = defineConnection({
      service: 'p',
      baseUrl: { param: 'base_url', schema: userOnlyParam(z.url()) },
      credential: { param: 'token', schema: secretParam(z.string()), header: 'authorization', scheme: 'Bearer', env: 'P_TOKEN' },
    });
    expect(withParam.request({ base_url: 'https://p.example//', token: 't' }, {}, { method: 'GET', path: '/x', headers: { a: 'b' } })).toMatchObject({
      url: 'https://p.example/x',
      headers: { authorization: 'Bearer t', a: 'b' },
    });
  });

  it('belongs to one service, and so do the tools defineService is given', () => {
    const base = { name: 'Bare', description: 'd', icon: '<svg/>', color: '#000' };
    expect(() => defineService({ ...base, id: 'other', connection: bare, tools: [] })).toThrow('service other: its connection is for bare');
    expect(() => defineService({ ...base, id: 'bare', connection: bare, tools: [{ ...ping, service: 'x' }] })).toThrow('tool bare_ping belongs to x');
    expect(defineService({ ...base, id: 'bare', connection: bare, tools: [ping] }).env).toEqual({ key: 'BARE_KEY' });
  });
});

describe('the preview with blocks of no registered service', () => {
  it('reads the base URL field from the manifest, and passes unknown services on as endpoints', () => {
    const tool = { id: 'own_x', name: 'X', service: 'own' };
    const block = defineBlock({ type: 'own', name: 'Own', description: 'd', color: '#000', icon: '<svg/>', operations: [{ id: 'x', label: 'X', tool: { ...listBlocks()[2]!.tools[0]!, ...tool } }] });
    expect(endpointServiceOf(block)).toBeUndefined();
    const keyOnly = defineBlock({ type: 'keyonly', name: 'K', description: 'd', color: '#000', icon: '<svg/>', operations: [{ id: 'x', label: 'X', tool: { ...listBlocks()[1]!.tools.at(-1)!, ...tool } }] });
    expect(endpointServiceOf(keyOnly)).toBe('own');
    expect(endpointConnection({ elsewhere: 'http://127.0.0.1:1' }, listBlocks()).endpoints).toEqual({ elsewhere: 'http://127.0.0.1:1' });
  });
});
