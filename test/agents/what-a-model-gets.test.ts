/**
 * Issue 41, the agents' side, through the executor and the AI SDK tools against the sandbox:
 * no bytes that cannot be masked (item 1), no credential of the model's in a custom call
 * (item 2), a byte bound on every result and error (item 3), keys cut in errors (item 13).
 * Over MCP stdio the same is shown in test/reliability/hostile-model.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolExecutor, DEFAULT_MAX_RESULT_BYTES, toAiSdkTools, type AgentToolResult } from '../../src/hosts/agents/index.js';
import { executeTool } from '../../src/index.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';

let sb: Sandbox;
let settings: Record<string, Record<string, string>>;
const PARQUET_SQL = "SELECT user_id FROM events WHERE event IN ('config', 'filler') FORMAT Parquet";

/** Letters from a fixed sequence: text zstd compresses with Huffman-coded literals, as real rows are. */
function prose(length: number): string {
  let seed = 7;
  return Array.from({ length }, () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return 'etaoinshrdlu'[seed % 12];
  }).join('');
}

const bytesOf = (result: unknown) => Buffer.byteLength(JSON.stringify(result));

async function eventCount(event: string): Promise<number> {
  const result = await executeTool('tinybird_query', { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken, query: `SELECT count() AS n FROM events WHERE event = '${event}' FORMAT JSON` });
  return Number((result as unknown as { output: { data: { n: number }[] } }).output.data[0]!.n);
}

beforeAll(async () => {
  sb = await startSandbox({ tinybird: { queriesPerSecond: 10_000 } });
  settings = {
    tinybird: { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken },
    loops: { base_url: sb.urls.loops, apiKey: sb.credentials.loops.apiKey },
    workflow: { base_url: sb.urls.workflow, apiKey: sb.credentials.workflow.apiKey },
  };
  const rows = [
    { timestamp: '2026-11-27 10:00:00', event: 'config', user_id: `key=${sb.credentials.loops.apiKey}` },
    { timestamp: '2026-11-27 10:00:00', event: 'filler', user_id: `a-${prose(3000)}` },
    { timestamp: '2026-11-27 10:00:00', event: 'filler', user_id: 'z' },
    { timestamp: '2026-11-27 10:00:00', event: 'huge', user_id: 'h'.repeat(1_000_000) },
  ];
  const ingest = await executeTool('tinybird_events', { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken, datasource: 'events', data: rows.map((row) => JSON.stringify(row)).join('\n'), wait: true });
  expect(ingest.success).toBe(true);
}, 60_000);
afterAll(async () => {
  await sb?.close();
});

describe('what a model gets (executor and AI SDK, against the sandbox)', () => {
  it('item 1: a Parquet answer whose zstd pages hide a secret is withheld, by the executor and the AI SDK tools', async () => {
    // The file as the service sends it holds the Loops key in no form a byte search finds.
    const direct = await executeTool('tinybird_query', { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken, query: PARQUET_SQL });
    const bytes = Buffer.from((direct as { output: { data: string } }).output.data, 'base64');
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
    expect(bytes.includes(sb.credentials.loops.apiKey)).toBe(false);
    // executeTool's own rule (searched bytes) still hands it on: the agents' rule is stricter.
    const searched = await executeTool('tinybird_query', { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.adminToken, query: PARQUET_SQL }, { secrets: [sb.credentials.loops.apiKey] });
    expect(searched.success).toBe(true);

    const executor = createToolExecutor({ settings });
    const aiTools = await toAiSdkTools({ settings, jsonSchema: (schema) => schema });
    const results: AgentToolResult[] = [
      await executor.execute('tinybird_query', { query: PARQUET_SQL }),
      await executor.execute('tinybird_api_call', { path: '/v0/sql', query: { q: PARQUET_SQL } }),
      await aiTools.tinybird_query!.execute({ query: PARQUET_SQL }, {}),
      // A caller's own execute options cannot turn the rule off.
      await createToolExecutor({ settings, execute: { binaryAnswers: 'searched' } as never }).execute('tinybird_query', { query: PARQUET_SQL }),
    ];
    for (const result of results) {
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_response', message: expect.stringContaining('ask for a text format') } });
    }
  }, 30_000);

  it('item 2: a model\'s token in a custom call\'s query is refused, so a read token cannot append', async () => {
    const executor = createToolExecutor({ settings: { tinybird: { base_url: sb.urls.tinybird, token: sb.credentials.tinybird.readToken } } });
    const row = { timestamp: '2026-11-27 10:00:00', event: 'smuggled', user_id: 'u' };
    const before = await eventCount('smuggled');
    for (const token of ['token', 'Token', 'tok%65n']) {
      const result = await executor.execute('tinybird_api_call', { method: 'POST', path: '/v0/events', query: { name: 'events', [token]: sb.credentials.tinybird.appendToken }, body: row });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_params', issues: [{ path: `query.${token}` }] } });
    }
    expect(await eventCount('smuggled')).toBe(before);
    // Control: the read token itself may not append (the refusal above is not the service's).
    const own = await executor.execute('tinybird_api_call', { method: 'POST', path: '/v0/events', query: { name: 'events' }, body: row });
    expect(own).toMatchObject({ ok: false, error: { status: 403 } });
  }, 30_000);

  it('item 3: every result and error is bounded (default and configured), and says how to ask for less', async () => {
    expect(DEFAULT_MAX_RESULT_BYTES).toBe(100_000);
    const huge = "SELECT user_id FROM events WHERE event = 'huge' FORMAT JSON";
    const executor = createToolExecutor({ settings });
    const cut = await executor.execute('tinybird_query', { query: huge });
    expect(bytesOf(cut)).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_BYTES);
    expect(cut).toMatchObject({ ok: true, truncated: { field: 'output', unit: 'bytes' }, notes: [expect.stringContaining('ask for less')] });
    const kept = ((cut as { output: { data: { user_id: string }[] } }).output.data[0]!.user_id);
    expect(kept).toMatch(/^h+…$/);

    const small = createToolExecutor({ settings, maxResultBytes: 5_000 });
    const smallCut = await small.execute('tinybird_query', { query: huge });
    expect(bytesOf(smallCut)).toBeLessThanOrEqual(5_000);
    // An error is cut too: a service's refusal longer than the bound (the sandbox echoes the start
    // of 1 MB of SQL, as ClickHouse does), under a bound smaller than it.
    const tiny = createToolExecutor({ settings, maxResultBytes: 400 });
    const error = await tiny.execute('tinybird_query', { query: `SELECT '${'e'.repeat(1_000_000)}' FROM nowhere_at_all FORMAT JSON` });
    expect(error).toMatchObject({ ok: false, error: { message: expect.stringContaining('[cut: the error was') } });
    expect(bytesOf(error)).toBeLessThanOrEqual(400);

    const aiTools = await toAiSdkTools({ settings, maxResultBytes: 5_000, jsonSchema: (schema) => schema });
    const viaAi = await aiTools.tinybird_query!.execute({ query: huge }, {});
    expect(bytesOf(viaAi)).toBeLessThanOrEqual(5_000);
    expect(viaAi).toMatchObject({ ok: true, truncated: { unit: 'bytes' } });

    // A result under the bound is handed on as it was.
    const plain = await executor.execute('tinybird_query', { query: "SELECT count() AS n FROM events WHERE event = 'huge' FORMAT JSON" });
    expect(plain).toMatchObject({ ok: true, output: { data: [{ n: 1 }] } });
    expect(plain).not.toHaveProperty('truncated');
  }, 30_000);

  it('item 13: executeTool names a 200 KB key cut, and 10,000 keys as 20 and a count', async () => {
    const big = 'k'.repeat(200_000);
    const base = { base_url: sb.urls.workflow, apiKey: sb.credentials.workflow.apiKey, path: '/api/v1/logs' };
    const one = await executeTool('workflow_api_call', { ...base, headers: { [`${big}!`]: 'x' } });
    expect(one.success).toBe(false);
    expect(bytesOf(one)).toBeLessThan(2_000);
    expect((one as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe(`headers.${'k'.repeat(64)}… (200001 characters)`);
    const many = await executeTool('workflow_api_call', { ...base, query: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`${big.slice(0, 100)}${i}`, {}])) } as never);
    const issues = (many as { error: { issues: { path: string; message: string }[] } }).error.issues;
    expect(issues).toHaveLength(21);
    expect(issues.at(-1)).toEqual({ path: '', message: 'and 9980 more issues' });
    expect(bytesOf(many)).toBeLessThan(10_000);
  }, 30_000);
});
