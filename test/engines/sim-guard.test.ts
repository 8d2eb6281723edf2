/**
 * Sim's outbound guard on the adapted tools (issue 39, item 1): with `guard` every attempt is
 * checked by the host's validator and sent by its pinned fetch, never by undici. The guard here
 * is a stand-in with Sim's shapes that refuses loopback as hosted Sim does; the trial runs
 * Sim's own (scripts/sim-trial/in-sim/flowblocks-trial.test.ts).
 */
import { BlockList, isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { getTool } from '../../src/index.js';
import type { SimGuardedInit, SimOutboundGuard } from '../../src/hosts/sim/index.js';
import { toSimTool, toSimTools } from '../../src/hosts/sim/index.js';

const TOKEN = 'p.guard-test-token-4d1f';
const PUBLIC_IP = '203.0.113.7';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

interface Sent {
  ip: string;
  url: string;
  init: SimGuardedInit;
}

/** A guard shaped as Sim's: loopback refused with Sim's hosted message, every other name pinned to one public address. */
function fakeGuard(answers: Array<() => Response>) {
  const checked: string[] = [];
  const sent: Sent[] = [];
  const guard: SimOutboundGuard = {
    async validateUrlWithDNS(url, paramName) {
      checked.push(url);
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      const family = isIP(host);
      const isLoopback = host === 'localhost' || (family !== 0 && loopback.check(host, family === 6 ? 'ipv6' : 'ipv4'));
      if (isLoopback) return { isValid: false, error: `${paramName} cannot point to localhost` };
      return { isValid: true, resolvedIP: PUBLIC_IP };
    },
    createPinnedFetch(ip) {
      return async (url, init) => {
        sent.push({ ip, url, init });
        const answer = answers.shift();
        if (!answer) throw new Error('no answer scripted');
        return answer();
      };
    },
  };
  return { guard, checked, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const queryTool = getTool('tinybird_query')!;

describe("Sim's outbound guard on the adapted tools", () => {
  it('refuses a loopback base_url before anything is sent, as a final forbidden failure with no secret', async () => {
    const { guard, checked, sent } = fakeGuard([]);
    const result = await toSimTool(queryTool, { guard }).directExecution({ base_url: 'http://127.0.0.1:4177/tinybird', token: TOKEN, query: 'SELECT 1' });
    expect(result).toMatchObject({
      success: false,
      error: "forbidden: Sim's outbound policy refused the request: toolUrl cannot point to localhost",
      output: { error: { code: 'forbidden', retryable: false } },
    });
    expect(checked).toHaveLength(1);
    expect(new URL(checked[0]!).origin).toBe('http://127.0.0.1:4177');
    expect(sent).toEqual([]);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it("sends an allowed call through the host's pinned fetch: the address it checked, the harness's request, redirects answered", async () => {
    const { guard, checked, sent } = fakeGuard([json(200, { data: [{ n: 3 }], rows: 1, meta: [{ name: 'n', type: 'UInt64' }], statistics: { elapsed: 0.001, rows_read: 3, bytes_read: 24 } })]);
    const result = await toSimTool(queryTool, { guard }).directExecution({ base_url: 'https://api.tinybird.example', token: TOKEN, query: 'SELECT count() AS n FROM events' });
    expect(result).toMatchObject({ success: true, statusCode: 200, output: { data: [{ n: 3 }], rows: 1 } });
    expect(sent).toHaveLength(1);
    const [{ ip, url, init }] = sent as [Sent];
    expect(checked).toEqual([url]);
    expect(ip).toBe(PUBLIC_IP);
    expect(init.redirect).toBe('manual');
    expect(init.method).toBe('POST');
    const target = new URL(url);
    expect(target.origin + target.pathname).toBe('https://api.tinybird.example/v0/sql');
    expect(init.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(new URLSearchParams(String(init.body)).get('q')).toBe('SELECT count() AS n FROM events');
  });

  it('does not follow a redirect: the 3xx is the answer, its target never reached, no token sent on', async () => {
    const { guard, sent } = fakeGuard([() => new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } })]);
    const result = await toSimTool(queryTool, { guard }).directExecution({ base_url: 'https://api.tinybird.example', token: TOKEN, query: 'SELECT 1' });
    expect(result.success).toBe(false);
    expect(result.statusCode).toBe(302);
    expect(sent.map((s) => new URL(s.url).host)).toEqual(['api.tinybird.example']);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('checks every attempt again: a retry is judged by the address its host has then', async () => {
    const { guard, checked, sent } = fakeGuard([json(503, { error: 'busy' }, { 'retry-after': '0' }), json(200, { data: [{ n: 1 }], rows: 1, meta: [], statistics: { elapsed: 0, rows_read: 1, bytes_read: 1 } })]);
    const result = await toSimTool(queryTool, { guard, execute: { retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 } } }).directExecution({
      base_url: 'https://api.tinybird.example',
      token: TOKEN,
      query: 'SELECT 1',
    });
    expect(result.success).toBe(true);
    expect(checked).toHaveLength(2);
    expect(sent).toHaveLength(2);
  });

  it("puts every adapted tool behind the guard, Loops' fixed endpoint and the workflow platform's base_url too", async () => {
    const { guard, sent } = fakeGuard([]);
    const tools = toSimTools({ guard, execute: { endpoints: { loops: 'http://localhost:4100/loops/api/v1' } } });
    const loops = await tools.flowblocks_loops_find_contact!.directExecution({ apiKey: 'loops-guard-key', email: 'ada@example.com' });
    const logs = await tools.flowblocks_workflow_list_logs!.directExecution({ base_url: 'http://[::1]:4100/workflow', apiKey: 'wf-guard-key', workspaceId: 'ws_1' });
    for (const result of [loops, logs]) expect(result).toMatchObject({ success: false, output: { error: { code: 'forbidden' } } });
    expect(sent).toEqual([]);
  });

  it('without a guard the harness sends as before (undici): the guard is what moves the call to the host', async () => {
    const { sent } = fakeGuard([]);
    const result = await toSimTool(queryTool, { execute: { retry: false, timeoutMs: 2000 } }).directExecution({ base_url: 'http://127.0.0.1:9/tinybird', token: TOKEN, query: 'SELECT 1' });
    expect(result.output).toMatchObject({ error: { code: 'network' } });
    expect(sent).toEqual([]);
  });
});
