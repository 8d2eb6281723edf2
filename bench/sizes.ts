/** 5. The same small cost at any size: `tinybird_query` answers of 1 KB to 10 MB against `undici.request`. */
import { executeTool } from '../dist/src/index.js';
import { timeCalls } from './measure.js';
import { benchAgent, viaRequest } from './raw-clients.js';
import { alternateRounds, type RoundRatios } from './rounds.js';

const TOKEN = 'p.bench-token';

export interface SizeRow extends RoundRatios {
  label: string;
  bytes: number;
}

/** Answer sizes and calls per round: about the same time per round at each size. */
export const SIZES = [
  { label: '1 KB', bytes: 1_000, calls: 2000 },
  { label: '100 KB', bytes: 100_000, calls: 200 },
  { label: '1 MB', bytes: 1_000_000, calls: 30 },
  { label: '10 MB', bytes: 10_000_000, calls: 4 },
];

export async function sizeScaling(port: number, { runs = 15, scale = 0.5 } = {}): Promise<SizeRow[]> {
  const base = `http://127.0.0.1:${port}`;
  const agent = benchAgent();
  const rows: SizeRow[] = [];
  for (const size of SIZES) {
    // The server picks the answer by this comment; the raw side sends the same form body.
    const query = `SELECT * FROM events /* size:${size.bytes} */ FORMAT JSON`;
    const body = new URLSearchParams({ q: query }).toString();
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' };
    const raw = () => viaRequest(agent, base, { method: 'POST', path: '/v0/sql', headers, body });
    const params = { base_url: base, token: TOKEN, query };
    const tool = async () => {
      const result = await executeTool('tinybird_query', params);
      if (!result.success) throw new Error(`tool call failed: ${result.error.message}`);
      return result.output;
    };
    const calls = Math.max(2, Math.round(size.calls * scale));
    await timeCalls(calls, 1, raw);
    await timeCalls(calls, 1, tool);
    const perCall = (fn: () => Promise<unknown>) => async () => (await timeCalls(calls, 1, fn)) / calls;
    rows.push({ label: size.label, bytes: size.bytes, ...(await alternateRounds(runs, perCall(tool), perCall(raw))) });
  }
  await agent.close();
  return rows;
}
