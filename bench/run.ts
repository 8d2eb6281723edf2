/**
 * `npm run bench`: the four suites of issue 7 and the fleet suite of issue 19, one table with goals, written to
 * docs/benchmarks.md. Runs against dist/ (what users run); `npm run bench` builds first.
 * BENCH_QUICK=1 runs a smaller version (fewer calls and events) to check the suite itself.
 */
import { fileURLToPath } from 'node:url';
import { closeSharedDispatcher } from '../dist/src/index.js';
import { coldStart } from './cold-start.js';
import { fleetBench, requireRedisServer } from './fleet.js';
import { harnessOverhead } from './harness-overhead.js';
import { ingestBench } from './ingest.js';
import { startChild, stopChild } from './measure.js';
import { met, writeReport, type Row } from './report.js';
import { againstSdks } from './sdks.js';

const quick = process.env.BENCH_QUICK === '1';
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const log = (text: string) => process.stderr.write(`${text}\n`);

requireRedisServer();
const rows: Row[] = [];
const { child, message } = await startChild<{ port: number }>('./server.ts');
try {
  log('1/4 harness overhead …');
  const o = await harnessOverhead(message.port, quick ? { runs: 1, sequential: 500, parallel: 3000 } : {});
  rows.push({
    suite: 'harness overhead',
    measure: 'time per call, concurrency 1 (tinybird_query)',
    flowblocks: `${fmt(o.toolMsPerCall * 1000)} µs`,
    baseline: `${fmt(o.rawMsPerCall * 1000)} µs raw undici`,
    ratio: o.toolMsPerCall / o.rawMsPerCall,
    goal: { kind: 'max', value: 1.15 },
  });
  rows.push({
    suite: 'harness overhead',
    measure: 'throughput, concurrency 64',
    flowblocks: `${fmt(o.toolRps)} calls/s`,
    baseline: `${fmt(o.rawRps)} calls/s raw undici`,
    ratio: o.toolRps / o.rawRps,
    goal: { kind: 'min', value: 0.9 },
  });

  log('2/4 official SDKs …');
  for (const s of await againstSdks(message.port, quick ? { ops: 400, runs: 1 } : {})) {
    rows.push({
      suite: 'vs official SDK',
      measure: `${s.work}, concurrency 16`,
      flowblocks: `${fmt(s.toolOpsPerSec)} ops/s`,
      baseline: `${fmt(s.sdkOpsPerSec)} ops/s ${s.sdk}`,
      ratio: s.toolOpsPerSec / s.sdkOpsPerSec,
      goal: { kind: 'min', value: 1.5 },
    });
  }

  log('3/4 ingest …');
  const ingest = await ingestBench(message.port, quick ? { events: 100_000, runs: 1 } : {});
  for (const r of ingest.rows) {
    rows.push({
      suite: 'ingest',
      measure: `${fmt(ingest.events)} events (${fmt(ingest.bytes / 1e6)} MB), ${r.compression === 'gzip' ? 'gzip' : 'plain'}`,
      flowblocks: `${fmt(r.streamMbPerSec)} MB/s ingestEvents`,
      baseline: `${fmt(r.rawMbPerSec)} MB/s raw undici`,
      ratio: r.streamMbPerSec / r.rawMbPerSec,
      goal: { kind: 'min', value: 0.8 },
    });
    rows.push({
      suite: 'ingest',
      measure: `peak RSS of the streaming path, ${r.compression === 'gzip' ? 'gzip' : 'plain'}`,
      flowblocks: `${fmt(r.streamPeakRssMb)} MB`,
      baseline: '150 MB budget',
      ratio: r.streamPeakRssMb / 150,
      goal: { kind: 'max', value: 1 },
    });
  }

  log('4/4 cold start …');
  const cold = coldStart(quick ? { runs: 3 } : {});
  const whole = cold.find((c) => c.entry === 'flowblocks')!;
  for (const c of cold.filter((c) => c !== whole)) {
    rows.push({
      suite: 'cold start',
      measure: `import ${c.entry} in a fresh process`,
      flowblocks: `${fmt(c.importMs, 1)} ms`,
      baseline: `${fmt(whole.importMs, 1)} ms whole package`,
      ratio: c.importMs / whole.importMs,
      goal: { kind: 'max', value: 1 },
    });
  }

  log('fleet …');
  const fleet = await fleetBench(quick ? { sends: 25 } : {});
  const what = `${fleet.workers} workers × ${fleet.sends} Loops sends, one key`;
  rows.push({
    suite: 'fleet',
    measure: `${what}: sends per second overall`,
    flowblocks: `${fmt(fleet.shared.sendsPerSec, 2)} sends/s shared Redis pacer`,
    baseline: `10 sends/s the sandbox's limit (a pacer per process: ${fmt(fleet.alone.sendsPerSec, 2)}, ${fleet.alone.failed} sends failed)`,
    ratio: fleet.shared.sendsPerSec / 10,
    goal: { kind: 'min', value: 0.9 },
  });
  rows.push({
    suite: 'fleet',
    measure: `${what}: responses 429 (ratio: share of responses)`,
    flowblocks: `${fleet.shared.status429} of ${fleet.shared.responses} shared Redis pacer`,
    baseline: `${fleet.alone.status429} of ${fleet.alone.responses} a pacer per process`,
    ratio: fleet.shared.status429 / fleet.shared.responses,
    goal: { kind: 'max', value: 0 },
  });
} finally {
  await stopChild(child);
  await closeSharedDispatcher();
}

const notes = [
  'Harness overhead: `executeTool(\'tinybird_query\')` against `undici.request` with the same keep-alive Agent settings, the same form body and `body.json()`; both call the same local server, alternating runs.',
  'Official SDKs: `loops` (LoopsClient, its `apiRoot` pointed at the local server) and `@tinybirdco/sdk` (`createTinybirdApi`), doing the same calls as the flowblocks tools with the same concurrency; the flowblocks side includes turning the event objects into NDJSON.',
  'Ingest: `ingestEvents` reads the file with `readNdjsonFile` straight into its 10 MB request buffers and sends them with its defaults (2 at a time); the raw side posts the same pre-built 10 MB chunks with undici, 4 at a time, gzipping each chunk inside the timed loop in the gzip row. The local endpoint reads and discards. Peak RSS is `process.resourceUsage().maxRSS` of a fresh process that ran only the streaming ingest.',
  'Cold start: median of fresh `node -e "await import(…)"` processes, resolving the package by its own name as a user would.',
  "Fleet (bench/fleet.ts, one run each): worker processes (bench/fleet-worker.mjs) send `loops_send_event` with the same API key to the sandbox's Loops (10 requests per second per key in fixed windows), 10 calls at a time each, with the harness's default retries; once all through one `createRedisPacer` each on a local redis-server, once each with its own in-process `Pacer`. Sends per second: successful sends over the time from the first start to the last end.",
];
const file = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const text = writeReport(file, rows, notes);
process.stdout.write(`${text}\n\nwritten to docs/benchmarks.md; ${rows.filter(met).length} of ${rows.length} goals met\n`);
