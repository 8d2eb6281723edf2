/**
 * Issue 44, item 1: the testing kit keeps no secret in any form (raw, percent-encoded,
 * form-encoded, JSON-escaped, base64, base64url) in what it hands back or writes: `calls()`
 * (path, query, headers, body) and a recording's fixture file (answer bodies and headers),
 * for the credential a request carries and for the `secrets` option's values alike.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { mockServices, recordServices } from '../../src/testing/index.js';
import { mockService } from '../helpers/mock-service.js';
import { echoEveryForm, expectNoSecretForm, HEADER_SAFE_SECRETS, secretForms, TELLING_SECRETS } from '../helpers/secret-forms.js';

const TOKEN = HEADER_SAFE_SECRETS[0];
const OTHER = TELLING_SECRETS[0];
const dir = mkdtempSync(join(tmpdir(), 'flowblocks-secret-forms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('calls(): no secret in any form, wherever the request held it', () => {
  async function queried() {
    const mock = mockServices({ secrets: [OTHER] });
    const sql = `SELECT '${[TOKEN, OTHER].map(echoEveryForm).join(' ')}' AS s FORMAT JSON`;
    await executeTool('tinybird_query', { base_url: 'https://api.tinybird.co', token: TOKEN, query: sql }, { dispatcher: mock });
    const [call] = mock.calls('tinybird_query');
    expect(call).toMatchObject({ method: 'POST', path: '/v0/sql', headers: { authorization: 'Bearer [redacted]' } });
    expect(JSON.stringify(call!.body)).toContain('[redacted]');
    return call!;
  }

  it('in the headers and a form-encoded body, every form, once decoded too (issue 41.9)', async () => {
    expectNoSecretForm(await queried(), [TOKEN, OTHER]);
  });

  it('in the path and the query string of a GET', async () => {
    const mock = mockServices({ secrets: [OTHER] });
    const parameters = Object.fromEntries(secretForms(OTHER).map((form) => [form.name.replace(/\W/g, '_'), form.text]));
    await executeTool('tinybird_query_pipe', { base_url: 'https://api.tinybird.co', token: TOKEN, pipe: 'top', parameters }, { dispatcher: mock });
    const [call] = mock.calls('tinybird_query_pipe');
    expect(call).toMatchObject({ method: 'GET', path: '/v0/pipes/top.json' });
    expect(Object.values(call!.query).every((value) => String(value).startsWith('[redacted]'))).toBe(true);
    expectNoSecretForm(mock.calls(), [TOKEN, OTHER]);
  });
});

describe('recordServices(): no secret in any form in the fixture file', () => {
  const WF = 'https://workflows.example.com';

  async function recorded(): Promise<{ text: string; saved: { tools: Record<string, { sequence: { headers: Record<string, string> }[] }> } }> {
    const upstream = mockService(WF);
    const echo = [TOKEN, OTHER].map(echoEveryForm).join(' || ');
    const log = { id: 'log-1', workflowId: 'w', executionId: 'e', level: 'info', trigger: 'api', startedAt: '2026-11-27T10:00:00Z', executionData: { finalOutput: echo, [echo]: 1 } };
    // A header holds no character above U+00FF: the key the request carried, in every form.
    upstream.on('GET', '/api/v1/logs/log-1', { status: 200, body: { data: log }, headers: { 'x-echo': echoEveryForm(TOKEN) } });
    const recorder = recordServices({ upstream: upstream.agent, secrets: [OTHER] });
    const result = await executeTool('workflow_get_log', { base_url: WF, apiKey: TOKEN, id: 'log-1' }, { dispatcher: recorder, retry: false });
    expect(result.success).toBe(true);
    expect(upstream.requests[0]!.headers['x-api-key']).toBe(TOKEN);
    const file = join(dir, 'recording.json');
    recorder.save(file);
    const text = readFileSync(file, 'utf8');
    return { text, saved: JSON.parse(text) as never };
  }

  it('in an answer header, and every form in an answer body and its keys, once parsed too (issue 41.9)', async () => {
    const { text, saved } = await recorded();
    const header = saved.tools.workflow_get_log!.sequence[0]!.headers['x-echo']!;
    expect(header).toContain('[redacted]');
    expectNoSecretForm([text, saved], [TOKEN, OTHER]);
  });
});
