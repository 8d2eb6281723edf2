import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { loadFixtureFile, mockServices, recordServices } from '../../src/testing/index.js';
import { BASE_URLS, SECRETS } from './helpers.js';

// Issue 41 items 6 and 9: the testing kit masks a secret whatever the order it was seen in and
// whatever spelling the wire gave it.

const dir = mkdtempSync(join(tmpdir(), 'flowblocks-kit-masking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tinybird = { base_url: BASE_URLS.tinybird!, token: SECRETS.tinybird! };
const LOOPS_ORIGIN = 'https://app.loops.so';
let upstream: MockAgent | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

/** The real services, as undici mocks: Tinybird answers `rows`, Loops accepts the key. */
function services(rows: string): MockAgent {
  const agent = (upstream = new MockAgent());
  agent.disableNetConnect();
  agent.get(BASE_URLS.tinybird!).intercept({ method: 'POST', path: '/v0/sql' }).reply(200, rows, { headers: { 'content-type': 'application/json' } });
  agent.get(LOOPS_ORIGIN).intercept({ method: 'GET', path: '/api/v1/api-key' }).reply(200, { success: true, teamName: 'Team' }, { headers: { 'content-type': 'application/json' } });
  return agent;
}

/** A Query API answer (FORMAT JSON) whose one row is `row`, JSON text as the service wrote it. */
const queryAnswer = (row: string) => `{"meta":[],"data":[${row}],"rows":1,"statistics":{"elapsed":0.001,"rows_read":1,"bytes_read":1}}`;

const unicodeEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('recordServices()', () => {
  it('masks a key in an answer recorded before the request that carried it (Tinybird first, then Loops, as documented)', async () => {
    const loopsKey = SECRETS.loops!;
    const recorder = recordServices({ upstream: services(queryAnswer(`{"note":${JSON.stringify(`key=${loopsKey}`)}}`)) });
    const options = { dispatcher: recorder, pacer: false as const };
    const first = await executeTool('tinybird_query', { ...tinybird, query: 'SELECT note FROM config FORMAT JSON' }, options);
    expect(first, JSON.stringify(first)).toMatchObject({ success: true });
    expect((await executeTool('loops_test_api_key', { apiKey: loopsKey }, options)).success).toBe(true);
    const file = join(dir, 'order.json');
    recorder.save(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(loopsKey);
    expect(text).not.toContain(JSON.stringify(loopsKey).slice(1, -1));
    expect(loadFixtureFile(file).tools.tinybird_query!.sequence![0]!.body).toMatchObject({ data: [{ note: 'key=[redacted]' }] });
  });

  it('masks a \\u-escaped credential in a JSON answer: the value is compared after parsing, not the text', async () => {
    const token = SECRETS.tinybird!;
    const rows = queryAnswer(`{"echo":"${unicodeEscaped(token)}"}`);
    expect((JSON.parse(rows) as { data: { echo: string }[] }).data[0]!.echo).toBe(token);
    const recorder = recordServices({ upstream: services(rows) });
    expect((await executeTool('tinybird_query', { ...tinybird, query: 'SELECT 1 FORMAT JSON' }, { dispatcher: recorder, pacer: false })).success).toBe(true);
    const file = join(dir, 'escaped.json');
    recorder.save(file);
    const saved = JSON.stringify(JSON.parse(readFileSync(file, 'utf8')));
    expect(saved).not.toContain(token);
    expect(loadFixtureFile(file).tools.tinybird_query!.sequence![0]!.body).toMatchObject({ data: [{ echo: '[redacted]' }] });
  });
});

describe('mockServices() calls()', () => {
  it('masks a secret in a form-encoded body, whose encoding differs from encodeURIComponent', async () => {
    // `(`, `)`, `!` and `'` stay as they are in encodeURIComponent but are %-encoded in a form.
    const secret = "s3cr3t (team)!'";
    const mock = mockServices({ secrets: [secret] });
    await executeTool('tinybird_query', { ...tinybird, query: `SELECT '${secret}' AS leaked FORMAT JSON` }, { dispatcher: mock, pacer: false });
    const [call] = mock.calls('tinybird_query');
    expect(call!.body).toMatchObject({ q: "SELECT '[redacted]' AS leaked FORMAT JSON" });
    expect(call!.params).toMatchObject({ q: "SELECT '[redacted]' AS leaked FORMAT JSON" });
    expect(JSON.stringify(mock.calls())).not.toContain(secret);
  });

  it('masks a \\u-escaped secret in a JSON request body', async () => {
    const secret = 'extra-secret-value';
    const mock = mockServices({ secrets: [secret] });
    const sent = `{"eventName":"signup","email":"a@b.co","eventProperties":{"note":"${unicodeEscaped(secret)}"}}`;
    // As any JSON encoder may send it: the mock is a dispatcher, and a user's own call goes through it too.
    await mock.request({ origin: LOOPS_ORIGIN, path: '/api/v1/events/send', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRETS.loops}` }, body: sent }).catch(() => undefined);
    const [call] = mock.calls('loops_send_event');
    expect(call!.body).toMatchObject({ eventProperties: { note: '[redacted]' } });
    expect(JSON.stringify(mock.calls())).not.toContain(secret);
  });
});
