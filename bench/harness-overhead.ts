/** 1. What `executeTool` costs over raw undici doing the same call: `undici.request`, and undici's `dispatch`. */
import { executeTool } from '../dist/src/index.js';
import { timeCalls } from './measure.js';
import { benchAgent, viaDispatch, viaRequest, type RawCall } from './raw-clients.js';
import { alternateRounds, type RoundRatios } from './rounds.js';

export interface OverheadResult {
  /** ms per call at concurrency 1, tool against `undici.request`. */
  c1: RoundRatios;
  /** calls per second at concurrency 64, tool against `undici.request`. */
  c64: RoundRatios;
  /** The same two against raw `dispatch`. */
  dispatchC1: RoundRatios;
  dispatchC64: RoundRatios;
}

const SQL = 'SELECT count() AS n, day FROM events GROUP BY day FORMAT JSON';
const TOKEN = 'p.bench-token';

export async function harnessOverhead(port: number, { runs = 9, sequential = 3000, parallel = 30000 } = {}): Promise<OverheadResult> {
  const base = `http://127.0.0.1:${port}`;
  const agent = benchAgent();
  const call: RawCall = {
    method: 'POST',
    path: '/v0/sql',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ q: SQL }).toString(),
  };
  const raw = () => viaRequest(agent, base, call);
  const dispatch = () => viaDispatch(agent, base, call);
  const params = { base_url: base, token: TOKEN, query: SQL };
  const tool = async () => {
    const result = await executeTool('tinybird_query', params);
    if (!result.success) throw new Error(`tool call failed: ${result.error.message}`);
    return result.output;
  };

  // Warm-up: JIT, connections, schema caches.
  for (const fn of [raw, dispatch, tool]) await timeCalls(2000, 8, fn);

  const perCall = (fn: () => Promise<unknown>) => async () => (await timeCalls(sequential, 1, fn)) / sequential;
  const perSecond = (fn: () => Promise<unknown>) => async () => parallel / ((await timeCalls(parallel, 64, fn)) / 1000);
  const result = {
    c1: await alternateRounds(runs, perCall(tool), perCall(raw)),
    c64: await alternateRounds(runs, perSecond(tool), perSecond(raw)),
    dispatchC1: await alternateRounds(runs, perCall(tool), perCall(dispatch)),
    dispatchC64: await alternateRounds(runs, perSecond(tool), perSecond(dispatch)),
  };
  await agent.close();
  return result;
}
