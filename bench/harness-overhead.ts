/** 1. What `executeTool` costs over a raw `undici.request` doing the same call. */
import { Agent, request } from 'undici';
import { executeTool } from '../dist/src/index.js';
import { median, timeCalls } from './measure.js';

export interface OverheadResult {
  rawMsPerCall: number;
  toolMsPerCall: number;
  rawRps: number;
  toolRps: number;
}

const SQL = 'SELECT count() AS n, day FROM events GROUP BY day FORMAT JSON';
const TOKEN = 'p.bench-token';

/** Runs raw and tool alternately, `runs` times each, and keeps the medians. */
async function alternate(runs: number, raw: () => Promise<number>, tool: () => Promise<number>) {
  const rawTimes: number[] = [];
  const toolTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    rawTimes.push(await raw());
    toolTimes.push(await tool());
  }
  return { raw: median(rawTimes), tool: median(toolTimes) };
}

export async function harnessOverhead(port: number, { runs = 9, sequential = 3000, parallel = 30000 } = {}): Promise<OverheadResult> {
  const base = `http://127.0.0.1:${port}`;
  // The same settings as the harness's shared Agent, so only the harness differs.
  const agent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 128 });
  const form = new URLSearchParams({ q: SQL }).toString();
  const raw = async () => {
    const res = await request(`${base}/v0/sql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      dispatcher: agent,
    });
    if (res.statusCode !== 200) throw new Error(`raw call answered ${res.statusCode}`);
    return res.body.json();
  };
  const params = { base_url: base, token: TOKEN, query: SQL };
  const tool = async () => {
    const result = await executeTool('tinybird_query', params);
    if (!result.success) throw new Error(`tool call failed: ${result.error.message}`);
    return result.output;
  };

  // Warm-up: JIT, connections, schema caches.
  await timeCalls(2000, 8, raw);
  await timeCalls(2000, 8, tool);

  const c1 = await alternate(runs, () => timeCalls(sequential, 1, raw), () => timeCalls(sequential, 1, tool));
  const c64 = await alternate(runs, () => timeCalls(parallel, 64, raw), () => timeCalls(parallel, 64, tool));
  await agent.close();
  return {
    rawMsPerCall: c1.raw / sequential,
    toolMsPerCall: c1.tool / sequential,
    rawRps: parallel / (c64.raw / 1000),
    toolRps: parallel / (c64.tool / 1000),
  };
}
