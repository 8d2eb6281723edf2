import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool, type ExecuteOptions } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { loadFixtureFile, mockServices, parseFixtureFile, recordServices } from '../../src/testing/index.js';

let sb: Sandbox;
let dir: string;
const upstream = new Agent();

beforeAll(async () => {
  sb = await startSandbox({ loops: { requestsPerSecond: 1000 }, servicePorts: false });
  dir = mkdtempSync(join(tmpdir(), 'flowblocks-record-'));
});
afterAll(async () => {
  await sb?.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A few calls of a workflow; the contact's first name is the API key itself, so the answer of find holds it. */
async function workflow(options: ExecuteOptions) {
  const apiKey = sb.credentials.loops.apiKey;
  const token = sb.credentials.tinybird.adminToken;
  const loops = { apiKey };
  return [
    await executeTool('loops_test_api_key', loops, options),
    await executeTool('loops_update_contact', { ...loops, email: 'rec@example.com', firstName: apiKey }, options),
    await executeTool('loops_find_contact', { ...loops, email: 'rec@example.com' }, options),
    await executeTool('tinybird_query', { base_url: sb.urls.tinybird, token, query: 'SELECT 1 AS n FORMAT JSON' }, options),
    await executeTool('loops_find_contact', { ...loops, email: 'nobody@example.com' }, options),
  ];
}

describe('record and replay', () => {
  it('records what the sandbox answered, without a secret, and replays it offline', async () => {
    const recorder = recordServices({ upstream });
    const live = await workflow({ dispatcher: recorder, endpoints: { loops: sb.urls.loops }, pacer: false });
    expect(live.map((r) => r.success)).toEqual([true, true, true, true, true]);
    const file = join(dir, 'fixtures', 'welcome.json');
    recorder.save(file);

    const text = readFileSync(file, 'utf8');
    for (const secret of [sb.credentials.loops.apiKey, sb.credentials.tinybird.adminToken]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
    }
    expect(readdirSync(join(dir, 'fixtures'))).toEqual(['welcome.json']);
    const recording = loadFixtureFile(file);
    expect(Object.keys(recording.tools).sort()).toEqual(['loops_find_contact', 'loops_test_api_key', 'loops_update_contact', 'tinybird_query']);
    expect(recording.tools.loops_find_contact!.sequence).toHaveLength(2);
    expect(recording.tools.loops_find_contact!.sequence![0]!.body).toMatchObject([{ email: 'rec@example.com', firstName: '[redacted]' }]);

    // Offline: no sandbox behind the mock; the answers come back in the order they were recorded.
    const mock = mockServices({ fixtures: recording });
    const replayed = await workflow({ dispatcher: mock, endpoints: { loops: sb.urls.loops }, pacer: false });
    const outputs = (results: typeof live) => results.map((r) => (r.success ? r.output : r.error));
    expect(outputs(replayed)).toEqual(
      outputs(live).map((output, i) => (i === 2 ? { contacts: [{ ...(output as { contacts: object[] }).contacts[0], firstName: '[redacted]' }] } : output)),
    );
    expect(JSON.stringify(mock.calls())).not.toContain(sb.credentials.loops.apiKey);
    // Past the recording, the built-in fixture answers.
    const more = await executeTool('loops_find_contact', { apiKey: 'k-123456', email: 'x@example.com' }, { dispatcher: mock });
    expect(more.success && more.output.contacts[0]?.email).toBe('adam@loops.so');
  });

  it('masks the values given as secrets in answers too (a token an answer creates)', async () => {
    const recorder = recordServices({ upstream, secrets: ['flowblocks sandbox'] });
    await executeTool('loops_test_api_key', { apiKey: sb.credentials.loops.apiKey }, { dispatcher: recorder, endpoints: { loops: sb.urls.loops }, pacer: false });
    expect(recorder.fixtures().tools.loops_test_api_key!.sequence![0]!.body).toEqual({ success: true, teamName: '[redacted]' });
  });

  it('refuses a fixture file naming a tool no service has, or a malformed answer, naming the field', () => {
    expect(() => parseFixtureFile(JSON.parse('{"tools": {"__proto__": {"sequence": []}}}'), 'hostile.json')).toThrow('hostile.json names a tool no service has: "__proto__"');
    expect(() => mockServices({ fixtures: parseFixtureFile(JSON.parse('{"tools": {"constructor": {"sequence": []}}}'), 'c.json') })).toThrow('names a tool no service has: "constructor"');
    expect(() => parseFixtureFile({ tools: { tinybird_query: { sequence: [{ status: 200 }] } } }, 'no-source.json')).toThrow('no-source.json is not valid: tools.tinybird_query.sequence.0.source');
    expect(() => mockServices({ fixtures: { tools: { tinybird_querry: { sequence: [] } } } })).toThrow('names a tool no service has: "tinybird_querry"');
    const file = join(dir, 'bad.json');
    rmSync(file, { force: true });
    recordServices().save(file);
    expect(loadFixtureFile(file)).toMatchObject({ tools: {} });
  });
});
