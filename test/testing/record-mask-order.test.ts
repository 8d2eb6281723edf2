/**
 * Issue 41 items 6 and 9: what the testing kit keeps holds no credential, whatever the order
 * the recording saw them in and however the answer or the request spelled them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { mockServices, recordServices } from '../../src/testing/index.js';

const TINYBIRD = 'https://api.tinybird.co';
const TOKEN = 'p.tinybird_token_41';
const LOOPS_KEY = 'loops_key_41_abcdef';
const dir = mkdtempSync(join(tmpdir(), 'flowblocks-record-mask-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `\uXXXX` for every character: JSON for the same text that no byte search for it finds. */
const unicodeEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

function upstream(rowsJson: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get(TINYBIRD)
    .intercept({ method: 'POST', path: '/v0/sql', headers: { authorization: `Bearer ${TOKEN}` } })
    .reply(200, `{"meta":[{"name":"v","type":"String"}],"data":${rowsJson},"rows":1,"statistics":{"elapsed":0.001,"rows_read":1,"bytes_read":1}}`, {
      headers: { 'content-type': 'application/json' },
    });
  agent
    .get('https://app.loops.so')
    .intercept({ method: 'GET', path: '/api/v1/contacts/find?email=ada%40example.com', headers: { authorization: `Bearer ${LOOPS_KEY}` } })
    .reply(200, '[]', { headers: { 'content-type': 'application/json' } });
  return agent;
}

describe('recordServices(): masked with every secret of the whole recording, at save time', () => {
  it('masks the Loops key in a Tinybird answer recorded before the Loops call that carried it', async () => {
    const agent = upstream(`[{"v":"key=${LOOPS_KEY}"}]`);
    const recorder = recordServices({ upstream: agent });
    const query = await executeTool('tinybird_query', { base_url: TINYBIRD, token: TOKEN, query: 'SELECT v FROM config FORMAT JSON' }, { dispatcher: recorder });
    expect(query).toMatchObject({ success: true });
    const find = await executeTool('loops_find_contact', { apiKey: LOOPS_KEY, email: 'ada@example.com' }, { dispatcher: recorder });
    expect(find).toMatchObject({ success: true, output: { contacts: [] } });
    agent.assertNoPendingInterceptors();

    const file = join(dir, 'order.json');
    recorder.save(file);
    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toContain(LOOPS_KEY);
    expect(JSON.parse(saved).tools.tinybird_query.sequence[0].body.data).toEqual([{ v: 'key=[redacted]' }]);
  });

  it('masks a credential the answer spelled with JSON \\u escapes', async () => {
    const agent = upstream(`[{"v":"${unicodeEscaped(TOKEN)}"}]`);
    const recorder = recordServices({ upstream: agent });
    const result = await executeTool('tinybird_query', { base_url: TINYBIRD, token: TOKEN, query: 'SELECT v FROM t FORMAT JSON' }, { dispatcher: recorder });
    expect(result).toMatchObject({ success: true });
    const file = join(dir, 'escaped.json');
    recorder.save(file);
    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toContain(TOKEN);
    expect(JSON.parse(saved).tools.tinybird_query.sequence[0].body.data).toEqual([{ v: '[redacted]' }]);
  });
});

describe('calls(): a secret in a form-encoded body', () => {
  it('is masked once the form is decoded (a space sent as "+", a quote percent-encoded)', async () => {
    const secret = 'shared secret "41"';
    const mock = mockServices({ secrets: [secret] });
    const query = `SELECT '${secret}' AS s FORMAT JSON`;
    await executeTool('tinybird_query', { base_url: TINYBIRD, token: TOKEN, query }, { dispatcher: mock });
    const [call] = mock.calls('tinybird_query');
    expect(call).toMatchObject({
      method: 'POST',
      path: '/v0/sql',
      headers: { authorization: 'Bearer [redacted]', 'content-type': 'application/x-www-form-urlencoded' },
      body: { q: "SELECT '[redacted]' AS s FORMAT JSON" },
    });
    expect(JSON.stringify(mock.calls())).not.toContain('shared secret');
  });
});
