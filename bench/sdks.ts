/** 2. flowblocks against the official SDKs: same local server, same work, same concurrency. */
import { createTinybirdApi } from '@tinybirdco/sdk';
import { LoopsClient } from 'loops';
import { executeTool } from '../dist/src/index.js';
import { median, timeCalls } from './measure.js';

export interface SdkRow {
  work: string;
  sdk: string;
  sdkOpsPerSec: number;
  toolOpsPerSec: number;
}

const TOKEN = 'p.bench-token';
const API_KEY = 'bench-loops-api-key';
const EVENTS = Array.from({ length: 100 }, (_, i) => ({ timestamp: '2026-11-22 10:00:00', event: 'page_view', user_id: `u${i}`, path: `/docs/${i}` }));

function must(result: { success: boolean; error?: { message: string } }) {
  if (!result.success) throw new Error(`flowblocks call failed: ${result.error?.message}`);
}

async function compare(ops: number, concurrency: number, runs: number, sdk: (i: number) => Promise<unknown>, tool: (i: number) => Promise<unknown>) {
  await timeCalls(Math.min(ops, 1000), concurrency, sdk);
  await timeCalls(Math.min(ops, 1000), concurrency, tool);
  const sdkTimes: number[] = [];
  const toolTimes: number[] = [];
  for (let r = 0; r < runs; r++) {
    sdkTimes.push(await timeCalls(ops, concurrency, sdk));
    toolTimes.push(await timeCalls(ops, concurrency, tool));
  }
  return { sdkOpsPerSec: ops / (median(sdkTimes) / 1000), toolOpsPerSec: ops / (median(toolTimes) / 1000) };
}

export async function againstSdks(port: number, { ops = 4000, concurrency = 16, runs = 3 } = {}): Promise<SdkRow[]> {
  const base = `http://127.0.0.1:${port}`;
  const loops = new LoopsClient(API_KEY);
  loops.apiRoot = `${base}/api/`;
  const endpoints = { loops: `${base}/api/v1` };
  const tinybird = createTinybirdApi({ baseUrl: base, token: TOKEN });
  const rows: SdkRow[] = [];

  rows.push({
    work: 'Loops: create + find contact',
    sdk: 'loops',
    ...(await compare(
      ops,
      concurrency,
      runs,
      (i) => (i % 2 ? loops.findContact({ email: 'ada@example.com' }) : loops.createContact({ email: `u${i}@example.com`, properties: { firstName: 'Ada' } })),
      async (i) =>
        must(
          i % 2
            ? await executeTool('loops_find_contact', { apiKey: API_KEY, email: 'ada@example.com' }, { endpoints })
            : await executeTool('loops_create_contact', { apiKey: API_KEY, email: `u${i}@example.com`, firstName: 'Ada' }, { endpoints }),
        ),
    )),
  });
  rows.push({
    work: 'Tinybird: pipe query',
    sdk: '@tinybirdco/sdk',
    ...(await compare(
      ops,
      concurrency,
      runs,
      () => tinybird.query('top_pages', { limit: 10 }),
      async () => must(await executeTool('tinybird_query_pipe', { base_url: base, token: TOKEN, pipe: 'top_pages', parameters: { limit: 10 } })),
    )),
  });
  rows.push({
    work: 'Tinybird: batch ingest (100 events)',
    sdk: '@tinybirdco/sdk',
    ...(await compare(
      ops / 4,
      concurrency,
      runs,
      () => tinybird.ingestBatch('events', EVENTS),
      // The same objects in, so turning them into NDJSON is part of the work.
      async () =>
        must(
          await executeTool('tinybird_events', { base_url: base, token: TOKEN, datasource: 'events', data: EVENTS.map((e) => JSON.stringify(e)).join('\n') }),
        ),
    )),
  });
  return rows;
}
