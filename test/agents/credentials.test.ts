import { describe, expect, it } from 'vitest';
import { createToolExecutor } from '../../src/hosts/agents/index.js';
import { missingSettings, secretValues, selectTools, serviceNames, userSide } from '../../src/hosts/agents/options.js';
import { scrubSecrets } from '../../src/hosts/agents/scrub.js';
import { getTool, mergeLlmParams } from '../../src/index.js';
import { paramsJsonSchema } from '../../src/schema.js';
import { paramNames } from '../../src/harness/define/fields.js';
import { listTools } from '../../src/registry.js';
import { mockService } from '../helpers/mock-service.js';

/**
 * The model sets credentials and endpoints the user left unset. Every other agents test
 * configures the very param the model tries to set, where the configured value wins
 * whether or not the model's is dropped: here only the filter stands between them.
 */
const TB = 'https://api.tinybird.co';
const EVIL = 'https://collector.evil.test';
const TOKEN = 'p.user+token/with=chars:@"é';
const jsonBody = { data: [{ n: 1 }], meta: [{ name: 'n', type: 'UInt64' }], rows: 1, statistics: { elapsed: 0, rows_read: 1, bytes_read: 1 } };

describe('credentials a model sets, the user having left them unset', () => {
  it('drops the model base_url when only a token is configured: the token goes to the service default, never to the model host', async () => {
    // The dispatcher knows only Tinybird's default host: a request to the model's host fails as a network error.
    const svc = mockService(TB);
    svc.on('POST', '/v0/sql', { status: 200, body: jsonBody });
    const executor = createToolExecutor({ settings: { tinybird: { token: TOKEN } }, execute: { dispatcher: svc.agent, retry: false } });
    const result = await executor.execute('tinybird_query', { query: 'SELECT 1 FORMAT JSON', base_url: EVIL });
    expect(result).toMatchObject({ ok: true });
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('drops the model base_url when only an API key is configured for a service with no default: the key never goes to the model host', async () => {
    const evil = mockService(EVIL);
    evil.on('GET', '/api/v1/executions/exec_1', { status: 200, body: { id: 'exec_1' } });
    const executor = createToolExecutor({ settings: { workflow: { apiKey: TOKEN } }, execute: { dispatcher: evil.agent, retry: false } });
    const result = await executor.execute('workflow_get_execution', { executionId: 'exec_1', base_url: EVIL });
    expect(evil.requests).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_params', issues: [{ path: 'base_url' }] } });
  });

  it('drops the model token when only a base URL is configured: nothing is sent with a credential the model chose', async () => {
    const svc = mockService(TB);
    svc.on('POST', '/v0/sql', { status: 200, body: jsonBody });
    const executor = createToolExecutor({ settings: { tinybird: { base_url: TB } }, execute: { dispatcher: svc.agent, retry: false } });
    const result = await executor.execute('tinybird_query', { query: 'SELECT 1 FORMAT JSON', token: 'model-made-this-up' });
    expect(svc.requests).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_params', issues: [{ path: 'token' }] } });
  });

  it('drops a model apiKey and base_url with nothing configured, for every service', async () => {
    for (const [id, args] of [
      ['loops_test_api_key', {}],
      ['workflow_get_execution', { executionId: 'exec_1' }],
    ] as const) {
      const evil = mockService(EVIL);
      const executor = createToolExecutor({ execute: { dispatcher: evil.agent, retry: false } });
      const result = await executor.execute(id, { ...args, apiKey: 'model-key', base_url: EVIL });
      expect(evil.requests).toEqual([]);
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
      expect((result as { error: { issues: { path: string }[] } }).error.issues.map((issue) => issue.path)).toContain('apiKey');
    }
  });

  it('mergeLlmParams keeps every user-only param of every tool out of the model arguments', () => {
    for (const tool of listTools()) {
      const userOnly = paramNames(tool.params, (meta) => meta.visibility === 'user-only');
      const fromModel = Object.fromEntries(userOnly.map((name) => [name, `model-${name}`]));
      expect(userOnly.length, tool.id).toBeGreaterThan(0);
      const merged = mergeLlmParams(tool, { ...fromModel, from_model: 1 }, {});
      expect(merged, tool.id).toEqual({ from_model: 1 });
      // What the user configured goes in, whatever the model said.
      expect(mergeLlmParams(tool, fromModel, { [userOnly[0]!]: 'configured' }), tool.id).toEqual({ [userOnly[0]!]: 'configured' });
    }
  });

  it('keeps the model arguments that are not user-only, and the user values over them', () => {
    const tool = getTool('tinybird_query')!;
    expect(mergeLlmParams(tool, { query: 'SELECT 1', base_url: EVIL }, { token: TOKEN })).toEqual({ query: 'SELECT 1', token: TOKEN });
    expect(Object.getPrototypeOf(mergeLlmParams(tool, JSON.parse('{"__proto__": {"x": 1}}'), {}))).toBeNull();
  });

  it('hides every user-only param from the schema a model sees, and only those', () => {
    for (const tool of listTools()) {
      const userOnly = paramNames(tool.params, (meta) => meta.visibility === 'user-only');
      const full = paramsJsonSchema(tool, 'full') as { properties: Record<string, unknown>; required?: string[] };
      const llm = paramsJsonSchema(tool, 'llm') as { properties: Record<string, unknown>; required?: string[] };
      expect(Object.keys(llm.properties).sort(), tool.id).toEqual(Object.keys(full.properties).filter((name) => !userOnly.includes(name)).sort());
      expect(llm.required ?? [], tool.id).toEqual((full.required ?? []).filter((name) => !userOnly.includes(name)));
      if (llm.required) expect(llm.required.length, tool.id).toBeGreaterThan(0);
    }
  });
});

describe('the user side of a call (options.ts) and the last scrub (scrub.ts)', () => {
  const tinybirdQuery = getTool('tinybird_query')!;
  const loopsSend = getTool('loops_send_event')!;

  it('userSide: only user-only params become params; a base URL with no param becomes the service endpoint', () => {
    expect(userSide(tinybirdQuery, { token: 't', base_url: TB, query: 'model-ish', other: 1, undefinedToken: undefined })).toEqual({ params: { token: 't', base_url: TB } });
    // Tinybird has a default base URL (its first region): it is used when none is configured.
    expect(userSide(tinybirdQuery, { token: undefined })).toEqual({ params: { base_url: TB } });
    expect(userSide(tinybirdQuery)).toEqual({ params: { base_url: TB } });
    expect(userSide(loopsSend, { apiKey: 'k', base_url: 'http://127.0.0.1:4100/loops/api/v1' })).toEqual({
      params: { apiKey: 'k' },
      endpoints: { loops: 'http://127.0.0.1:4100/loops/api/v1' },
    });
    expect(userSide(loopsSend, { apiKey: 'k', base_url: 42 })).toEqual({ params: { apiKey: 'k' } });
  });

  it('missingSettings: the credential, and a base URL only where the service has no default', () => {
    expect(missingSettings('workflow')).toEqual(['apiKey ($WORKFLOW_API_KEY)', 'base_url ($WORKFLOW_BASE_URL)']);
    expect(missingSettings('workflow', { apiKey: 'k' })).toEqual(['base_url ($WORKFLOW_BASE_URL)']);
    expect(missingSettings('workflow', { base_url: 'http://127.0.0.1:4100' })).toEqual(['apiKey ($WORKFLOW_API_KEY)']);
    expect(missingSettings('workflow', { apiKey: 'k', base_url: 'http://127.0.0.1:4100' })).toEqual([]);
    expect(missingSettings('tinybird')).toEqual(['token ($TINYBIRD_TOKEN)']);
    expect(missingSettings('tinybird', { token: TOKEN })).toEqual([]);
    expect(missingSettings('loops', { apiKey: '' })).toEqual([]);
    expect(missingSettings('no-such-service')).toEqual([]);
  });

  it('secretValues: the configured credentials only, non-empty strings', () => {
    expect(secretValues(tinybirdQuery, { token: TOKEN, base_url: TB, query: 'x' })).toEqual([TOKEN]);
    expect(secretValues(tinybirdQuery, { token: '' })).toEqual([]);
    expect(secretValues(tinybirdQuery, { token: 123 })).toEqual([]);
    expect(secretValues(loopsSend, { apiKey: 'k-1', token: 'not-a-loops-param' })).toEqual(['k-1']);
    expect(secretValues(loopsSend)).toEqual([]);
  });

  it('selectTools and serviceNames: by service, read-only on request', () => {
    expect(serviceNames()).toEqual(['tinybird', 'loops', 'workflow']);
    expect(selectTools().length).toBe(listTools().length);
    expect(selectTools({ services: ['loops'] }).every((tool) => tool.service === 'loops')).toBe(true);
    expect(selectTools({ services: ['loops'] }).length).toBeGreaterThan(0);
    const readOnly = selectTools({ readOnly: true });
    expect(readOnly.every((tool) => tool.annotations.readOnly)).toBe(true);
    expect(readOnly.length).toBe(listTools().filter((tool) => tool.annotations.readOnly).length);
    expect(selectTools({ services: [] })).toEqual([]);
  });

  it('scrubSecrets: strings at any depth, other values untouched; no secrets, the same object', () => {
    // Keys are left as they are: the envelope's own keys (ok, output) must survive a short
    // secret, and the harness has already masked keys (Redactor) with the same secrets.
    const value = { a: [`x${TOKEN}y`, { b: TOKEN, n: 1, f: false, z: null }], ok: 'yes' };
    expect(scrubSecrets(value, [TOKEN, 'y'])).toEqual({ a: ['x[redacted][redacted]', { b: '[redacted]', n: 1, f: false, z: null }], ok: '[redacted]es' });
    expect(scrubSecrets(value, [])).toBe(value);
    expect(scrubSecrets('plain', ['nothing'])).toBe('plain');
  });
});
