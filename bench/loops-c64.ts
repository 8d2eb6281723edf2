/** 6. Loops at concurrency 64: a read, and a send with its idempotency key and the pacer, against `undici.request`. */
import { randomUUID } from 'node:crypto';
import { executeTool } from '../dist/src/index.js';
import { timeCalls } from './measure.js';
import { benchAgent, viaRequest } from './raw-clients.js';
import { alternateRounds, type RoundRatios } from './rounds.js';

const API_KEY = 'bench-loops-api-key';

export interface LoopsRow extends RoundRatios {
  tool: string;
}

export async function loopsC64(port: number, { runs = 15, calls = 8000 } = {}): Promise<LoopsRow[]> {
  const base = `http://127.0.0.1:${port}`;
  const endpoints = { loops: `${base}/api/v1` };
  const agent = benchAgent();
  const auth = { authorization: `Bearer ${API_KEY}` };
  const must = (result: { success: boolean; error?: { message: string } }) => {
    if (!result.success) throw new Error(`flowblocks call failed: ${result.error?.message}`);
  };
  const cases = [
    {
      tool: 'loops_find_contact',
      flowblocks: async () => must(await executeTool('loops_find_contact', { apiKey: API_KEY, email: 'ada@example.com' }, { endpoints })),
      raw: () => viaRequest(agent, base, { method: 'GET', path: `/api/v1/contacts/find?email=${encodeURIComponent('ada@example.com')}`, headers: auth }),
    },
    {
      tool: 'loops_send_transactional_email',
      // The tool makes a key per call and paces it (the server reports a limit it never reaches).
      flowblocks: async () =>
        must(
          await executeTool(
            'loops_send_transactional_email',
            { apiKey: API_KEY, email: 'ada@example.com', transactionalId: 'tx_welcome', dataVariables: { name: 'Ada', plan: 'pro' } },
            { endpoints },
          ),
        ),
      // The raw side sends the same JSON body with its own fresh key.
      raw: () =>
        viaRequest(agent, base, {
          method: 'POST',
          path: '/api/v1/transactional',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify({ transactionalId: 'tx_welcome', email: 'ada@example.com', addToAudience: false, dataVariables: { name: 'Ada', plan: 'pro' } }),
        }),
    },
  ];
  const rows: LoopsRow[] = [];
  for (const c of cases) {
    await timeCalls(2000, 64, c.raw);
    await timeCalls(2000, 64, c.flowblocks);
    const perSecond = (fn: () => Promise<unknown>) => async () => calls / ((await timeCalls(calls, 64, fn)) / 1000);
    rows.push({ tool: c.tool, ...(await alternateRounds(runs, perSecond(c.flowblocks), perSecond(c.raw))) });
  }
  await agent.close();
  return rows;
}
