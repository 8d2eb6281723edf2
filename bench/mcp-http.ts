/**
 * The MCP-over-HTTP suite: `tinybird_query` through `flowblocks mcp --http` (its server
 * in a child process) against the in-process executor doing the same call, both answered by the
 * bench's peer. The server is called two ways: by the official SDK client (what Sim and n8n run;
 * its own CPU, about 1 ms per call, sits inside its latency) and by a minimal client (an undici
 * `Pool` POSTing the JSON-RPC body and reading the JSON answer), whose latency is the server's
 * own. Per call: the server process's CPU, this process's CPU (the client; for the executor, all
 * its work), and p50/p99 latency, at concurrency 1 and 64, in rotating rounds.
 */
import { once, setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { Pool } from 'undici';
import { createToolExecutor } from '../dist/src/hosts/agents/index.js';
import { median } from './measure.js';
import { startChild, stopChild } from './measure.js';

const QUERY = { query: 'SELECT count() AS n, day FROM events GROUP BY day FORMAT JSON' };

/** One side's medians over the rounds, per call. */
export interface McpSide {
  p50Ms: number;
  p99Ms: number;
  /** CPU µs per call of the process doing the work: the server's for MCP, this one's for the executor. */
  workCpuUs: number;
  /** CPU µs per call of this process: the client (MCP) or the whole executor call. */
  clientCpuUs: number;
}

/** One concurrency's sides: through the SDK client, through the minimal client, in process. */
export interface McpConcurrency {
  mcp: McpSide;
  minimal: McpSide;
  executor: McpSide;
}

export interface McpHttpResult {
  c1: McpConcurrency;
  c64: McpConcurrency;
  /**
   * Server CPU µs per call at c64 with no request to the service: flowblocks' server answering
   * a call of a tool it does not have, the SDK's server on its own Node transport answering a
   * fixed result, and plain node:http answering the same by hand.
   */
  breakdown: { ownUs: number; stockUs: number; rawUs: number };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Runs `calls` calls, `concurrency` at a time, and returns each one's latency in ms. */
async function latencies(calls: number, concurrency: number, fn: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < calls) {
        const start = performance.now();
        await fn();
        times.push(performance.now() - start);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

export async function mcpHttpBench(peerPort: number, { runs = 5, c1Calls = 1000, c64Calls = 8000 } = {}): Promise<McpHttpResult> {
  const { child, message } = await startChild<{ url: string; stockUrl: string; rawUrl: string }>('./mcp-http-server.ts', [String(peerPort)]);
  const serverCpu = async (): Promise<number> => {
    const answer = once(child, 'message');
    child.send('cpu');
    return ((await answer)[0] as { cpu: number }).cpu;
  };
  const connect = async (url: string) => {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    // The SDK client hands its one AbortSignal to every fetch; undici's Request adds a listener
    // to it per fetch, dropped only when that Request is collected. undici caps the signal at
    // 1 500 listeners when its limit is the default, and past that Node builds and prints a
    // warning per fetch, which would be counted as the client's cost: no limit on this signal.
    setMaxListeners(0, (transport as unknown as { _abortController: AbortController })._abortController.signal);
    return client;
  };
  const [client, stockClient, rawClient] = await Promise.all([connect(message.url), connect(message.stockUrl), connect(message.rawUrl)]);
  const fixed = (c: Client, name = 'tinybird_query') => async () => {
    await c.callTool({ name, arguments: QUERY });
  };
  // The minimal client: what a call is on the wire, and no more. Stateless, so no initialize first.
  const url = new URL(message.url);
  const pool = new Pool(url.origin, { connections: 64 });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  const params = JSON.stringify({ name: 'tinybird_query', arguments: QUERY });
  let nextId = 0;
  const viaMinimal = async () => {
    const body = `{"jsonrpc":"2.0","id":${++nextId},"method":"tools/call","params":${params}}`;
    const answer = await pool.request({ path: url.pathname, method: 'POST', headers, body });
    const json = (await answer.body.json()) as { result?: { isError?: boolean } };
    if (answer.statusCode !== 200 || !json.result || json.result.isError) throw new Error(`MCP call failed: ${answer.statusCode} ${JSON.stringify(json)}`);
  };
  const executor = createToolExecutor({ services: ['tinybird'], settings: { tinybird: { base_url: `http://127.0.0.1:${peerPort}`, token: 'p.bench-token' } } });

  const viaMcp = async () => {
    const result = await client.callTool({ name: 'tinybird_query', arguments: QUERY });
    if (result.isError) throw new Error(`MCP call failed: ${JSON.stringify(result.content)}`);
  };
  const inProcess = async () => {
    const result = await executor.execute('tinybird_query', QUERY);
    if (!result.ok) throw new Error(`executor call failed: ${result.error.message}`);
  };

  /** One round of one side: latencies, and the CPU of both processes per call. */
  const round = async (fn: () => Promise<void>, calls: number, concurrency: number) => {
    const server0 = await serverCpu();
    const own0 = process.cpuUsage();
    const times = await latencies(calls, concurrency, fn);
    const own = process.cpuUsage(own0);
    const server = (await serverCpu()) - server0;
    return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), own: (own.user + own.system) / calls, server: server / calls };
  };

  const measure = async (calls: number, concurrency: number): Promise<McpConcurrency> => {
    const sides = { mcp: viaMcp, minimal: viaMinimal, executor: inProcess };
    const names = Object.keys(sides) as (keyof typeof sides)[];
    const rounds = { mcp: [], minimal: [], executor: [] } as Record<keyof typeof sides, Awaited<ReturnType<typeof round>>[]>;
    for (let i = 0; i < runs; i++) {
      // Which side goes first rotates, so none always runs on a cooler machine.
      for (let j = 0; j < names.length; j++) {
        const name = names[(i + j) % names.length]!;
        rounds[name].push(await round(sides[name], calls, concurrency));
      }
    }
    const side = (name: keyof typeof sides): McpSide => ({
      p50Ms: median(rounds[name].map((r) => r.p50)),
      p99Ms: median(rounds[name].map((r) => r.p99)),
      workCpuUs: median(rounds[name].map((r) => (name === 'executor' ? r.own : r.server))),
      clientCpuUs: median(rounds[name].map((r) => r.own)),
    });
    return { mcp: side('mcp'), minimal: side('minimal'), executor: side('executor') };
  };

  try {
    // Warm-up: JIT, connections, compiled schemas, on both sides.
    await latencies(1000, 8, viaMcp);
    await latencies(1000, 8, viaMinimal);
    await latencies(1000, 8, inProcess);
    const c1 = await measure(c1Calls, 1);
    const c64 = await measure(c64Calls, 64);
    // A tool this server does not have: flowblocks' whole path, with no request to the service.
    const own = fixed(client, 'no_such_tool');
    await latencies(500, 8, own);
    await latencies(500, 8, fixed(stockClient));
    await latencies(500, 8, fixed(rawClient));
    const ownUs: number[] = [];
    const stock: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < runs; i++) {
      ownUs.push((await round(own, c64Calls, 64)).server);
      stock.push((await round(fixed(stockClient), c64Calls, 64)).server);
      raw.push((await round(fixed(rawClient), c64Calls, 64)).server);
    }
    return { c1, c64, breakdown: { ownUs: median(ownUs), stockUs: median(stock), rawUs: median(raw) } };
  } finally {
    await pool.close();
    await Promise.all([client.close(), stockClient.close(), rawClient.close()]);
    await stopChild(child);
  }
}
