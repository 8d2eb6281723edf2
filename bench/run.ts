/**
 * `npm run bench`: the suites of issues 7, 19 (fleet) and 21, one table with goals, written to
 * docs/benchmarks.md. Runs against dist/ (what users run); `npm run bench` builds first.
 * `npm run bench -- --suite size,loops` runs some suites and only prints their table.
 * BENCH_QUICK=1 runs a smaller version (fewer calls and events) to check the suite itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeSharedDispatcher } from '../dist/src/index.js';
import { BASELINE, coldStart, ENTRIES } from './cold-start.js';
import { fleetBench, requireRedisServer } from './fleet.js';
import { harnessOverhead } from './harness-overhead.js';
import { ingestBench } from './ingest.js';
import { loopsC64 } from './loops-c64.js';
import { mcpHttpBench } from './mcp-http.js';
import { startChild, stopChild } from './measure.js';
import { fromRounds, load, met, table, writeReport, type Row } from './report.js';
import { againstSdks } from './sdks.js';
import { sizeScaling } from './sizes.js';

const quick = process.env.BENCH_QUICK === '1';
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const log = (text: string) => process.stderr.write(`${text}\n`);

interface Suite {
  name: string;
  /** Fails before any suite runs when something the suite needs is missing. */
  check?(): void;
  /** Rows of the suite; `port` is the local peer server's. */
  run(port: number): Promise<Row[]>;
  /** One line for the notes under the table. */
  note: string;
}

// One entry per suite, in table order: a new suite is one more entry.
const SUITES: Suite[] = [
  {
    name: 'overhead',
    note: 'Harness overhead: `executeTool(\'tinybird_query\')` against `undici.request` with the same keep-alive Agent settings, the same form body and `body.json()`, and against undici\'s `dispatch` with a handler that only collects the chunks and parses them (what the harness itself sends through); both call the same local server, in alternating rounds.',
    async run(port) {
      const o = await harnessOverhead(port, quick ? { runs: 3, sequential: 500, parallel: 3000 } : {});
      const suite = 'harness overhead';
      return [
        { suite, measure: 'time per call, concurrency 1 (tinybird_query)', flowblocks: `${fmt(o.c1.flowblocks * 1000)} µs`, baseline: `${fmt(o.c1.baseline * 1000)} µs raw undici`, ...fromRounds(o.c1), goal: { kind: 'max', value: 1.15 } },
        { suite, measure: 'throughput, concurrency 64', flowblocks: `${fmt(o.c64.flowblocks)} calls/s`, baseline: `${fmt(o.c64.baseline)} calls/s raw undici`, ...fromRounds(o.c64), goal: { kind: 'min', value: 0.9 } },
        { suite, measure: 'time per call, concurrency 1, vs raw `dispatch`', flowblocks: `${fmt(o.dispatchC1.flowblocks * 1000)} µs`, baseline: `${fmt(o.dispatchC1.baseline * 1000)} µs raw dispatch`, ...fromRounds(o.dispatchC1), goal: { kind: 'max', value: 1.15 } },
        { suite, measure: 'throughput, concurrency 64, vs raw `dispatch`', flowblocks: `${fmt(o.dispatchC64.flowblocks)} calls/s`, baseline: `${fmt(o.dispatchC64.baseline)} calls/s raw dispatch`, ...fromRounds(o.dispatchC64), goal: { kind: 'min', value: 0.85 } },
      ];
    },
  },
  {
    name: 'size',
    note: 'Answer size: `tinybird_query` (FORMAT JSON, rows of seven columns, output checked and secrets looked for) against `undici.request` + `body.json()` of the same answer, concurrency 1, alternating rounds.',
    async run(port) {
      return (await sizeScaling(port, quick ? { runs: 3, scale: 0.25 } : {})).map((s) => ({
        suite: 'answer size',
        measure: `tinybird_query, ${s.label} answer, concurrency 1`,
        flowblocks: `${fmt(s.flowblocks, 2)} ms`,
        baseline: `${fmt(s.baseline, 2)} ms raw undici`,
        ...fromRounds(s),
        goal: { kind: 'max', value: 1.2 },
      }));
    },
  },
  {
    name: 'loops',
    note: 'Loops c64: `loops_find_contact` against a raw GET, `loops_send_transactional_email` (its generated Idempotency-Key and the shared pacer, which the server\'s large limit never makes wait) against a raw POST of the same JSON with a fresh key; `undici.request`, concurrency 64, alternating rounds.',
    async run(port) {
      return (await loopsC64(port, quick ? { runs: 3, calls: 3000 } : {})).map((l) => ({
        suite: 'Loops c64',
        measure: `${l.tool}, concurrency 64`,
        flowblocks: `${fmt(l.flowblocks)} calls/s`,
        baseline: `${fmt(l.baseline)} calls/s raw undici`,
        ...fromRounds(l),
        goal: { kind: 'min', value: 0.95 },
      }));
    },
  },
  {
    name: 'sdks',
    note: 'Official SDKs: `loops` (LoopsClient, its `apiRoot` pointed at the local server) and `@tinybirdco/sdk` (`createTinybirdApi`), doing the same calls as the flowblocks tools with the same concurrency; the flowblocks side includes turning the event objects into NDJSON.',
    async run(port) {
      return (await againstSdks(port, quick ? { ops: 400, runs: 1 } : {})).map((s) => ({
        suite: 'vs official SDK',
        measure: `${s.work}, concurrency 16`,
        flowblocks: `${fmt(s.toolOpsPerSec)} ops/s`,
        baseline: `${fmt(s.sdkOpsPerSec)} ops/s ${s.sdk}`,
        ratio: s.toolOpsPerSec / s.sdkOpsPerSec,
        goal: { kind: 'min', value: 1.5 },
      }));
    },
  },
  {
    name: 'ingest',
    note: 'Ingest: `ingestEvents` reads the file with `readNdjsonFile` straight into its 10 MB request buffers and sends them with its defaults (2 at a time); the raw side posts the same pre-built 10 MB chunks with undici, 4 at a time, gzipping each chunk inside the timed loop in the gzip row. The local endpoint reads and discards. Peak RSS is `process.resourceUsage().maxRSS` of a fresh process that ran only the streaming ingest.',
    async run(port) {
      const ingest = await ingestBench(port, quick ? { events: 100_000, runs: 1 } : {});
      return ingest.rows.flatMap((r): Row[] => {
        const kind = r.compression === 'gzip' ? 'gzip' : 'plain';
        return [
          { suite: 'ingest', measure: `${fmt(ingest.events)} events (${fmt(ingest.bytes / 1e6)} MB), ${kind}`, flowblocks: `${fmt(r.streamMbPerSec)} MB/s ingestEvents`, baseline: `${fmt(r.rawMbPerSec)} MB/s raw undici`, ratio: r.streamMbPerSec / r.rawMbPerSec, goal: { kind: 'min', value: 0.8 } },
          { suite: 'ingest', measure: `peak RSS of the streaming path, ${kind}`, flowblocks: `${fmt(r.streamPeakRssMb)} MB`, baseline: '150 MB budget', ratio: r.streamPeakRssMb / 150, goal: { kind: 'max', value: 1 } },
        ];
      });
    },
  },
  {
    name: 'cold',
    note: 'Cold start: fresh `node -e "await import(…)"` processes, resolving the package by its own name as a user would; each round imports every entry and `undici` once, in rotating order; ratios are per round; the CPU ratio is that of the importing processes\' own CPU time (user + system) for the import.',
    async run() {
      const cold = coldStart(quick ? { runs: 3 } : {});
      const whole = 'flowblocks';
      const rows: Row[] = [];
      for (const entry of ENTRIES.filter((e) => e !== whole)) {
        const r = cold.ratio(entry, whole);
        rows.push({ suite: 'cold start', measure: `import ${entry} in a fresh process`, flowblocks: `${fmt(r.flowblocks, 1)} ms`, baseline: `${fmt(r.baseline, 1)} ms whole package`, ...fromRounds(r), goal: { kind: 'max', value: 1 } });
      }
      for (const entry of ENTRIES) {
        const r = cold.ratio(entry, BASELINE);
        rows.push({ suite: 'cold start', measure: `import ${entry} vs \`import('undici')\``, flowblocks: `${fmt(r.flowblocks, 1)} ms`, baseline: `${fmt(r.baseline, 1)} ms undici alone`, ...fromRounds(r), goal: { kind: 'max', value: 1.1 } });
      }
      return rows;
    },
  },
  {
    name: 'mcp-http',
    note: 'MCP over HTTP (bench/mcp-http.ts): `tinybird_query` through `flowblocks mcp --http` (`serveMcpHttp` from dist/ in a child process, stateless, its own JSON-RPC answers written to Node\'s response) against `createToolExecutor().execute` in process; both answered by the same peer. The server is called by the official SDK client (`StreamableHTTPClientTransport`, what Sim and n8n run) and by a minimal client (an undici `Pool` POSTing the JSON-RPC body and parsing the JSON answer). Server CPU per call is the MCP process\'s own (executor, HTTP, JSON-RPC), through the SDK client; the executor\'s is the bench process\'s for the whole in-process call. The c1 goal is judged on the minimal client: its latency is the server\'s own, while the SDK client\'s adds that client\'s own CPU (about 1 ms per call on the same cores), which no server change removes; both are shown. With no request to the service, the same child answers calls of a tool flowblocks\' server does not have (its whole path), and a fixed result through the SDK\'s `Server` on the SDK\'s own Node transport (`StreamableHTTPServerTransport`, web `Request`/`Response` through hono) and through plain `node:http` writing the JSON-RPC answer by hand: the part of the server\'s CPU that is HTTP\'s. The c1 row\'s ratio is no ratio: it is the p50 the HTTP path adds, in ms, against its 1 ms budget.',
    async run(port) {
      const r = await mcpHttpBench(port, quick ? { runs: 1, c1Calls: 200, c64Calls: 1000 } : {});
      const suite = 'MCP over HTTP';
      const side = (x: { p50Ms: number; p99Ms: number; workCpuUs: number }, cpu: string) => `${fmt(x.workCpuUs)} µs ${cpu}; p50 ${fmt(x.p50Ms, 2)} ms, p99 ${fmt(x.p99Ms, 2)} ms`;
      return [
        {
          suite,
          measure: 'CPU per call, concurrency 64 (tinybird_query)',
          flowblocks: `${side(r.c64.mcp, 'server')} (+${fmt(r.c64.mcp.clientCpuUs)} µs SDK client); minimal client: ${side(r.c64.minimal, 'server')} (+${fmt(r.c64.minimal.clientCpuUs)} µs client); with no request to the service: ${fmt(r.breakdown.ownUs)} µs flowblocks' server (a tool it does not have), ${fmt(r.breakdown.stockUs)} µs the SDK's server on its own Node transport (a fixed result), ${fmt(r.breakdown.rawUs)} µs plain node:http`,
          baseline: side(r.c64.executor, 'in-process executor'),
          ratio: r.c64.mcp.workCpuUs / r.c64.executor.workCpuUs,
          goal: { kind: 'max', value: 2 },
        },
        {
          suite,
          measure: 'added p50 latency in ms, concurrency 1 (minimal client: the server\'s own)',
          flowblocks: `${side(r.c1.minimal, 'server')} (+${fmt(r.c1.minimal.clientCpuUs)} µs client); SDK client: ${side(r.c1.mcp, 'server')}, +${fmt(r.c1.mcp.p50Ms - r.c1.executor.p50Ms, 2)} ms over the executor (+${fmt(r.c1.mcp.clientCpuUs)} µs SDK client)`,
          baseline: side(r.c1.executor, 'in-process executor'),
          ratio: r.c1.minimal.p50Ms - r.c1.executor.p50Ms,
          goal: { kind: 'max', value: 1 },
        },
      ];
    },
  },
  {
    name: 'fleet',
    check: requireRedisServer,
    note: "Fleet (bench/fleet.ts, one run each): worker processes (bench/fleet-worker.mjs) send `loops_send_event` with the same API key to the sandbox's Loops (10 requests per second per key in fixed windows), 10 calls at a time each, with the harness's default retries; once all through one `createRedisPacer` each on a local redis-server, once each with its own in-process `Pacer`. Sends per second: successful sends over the time from the first start to the last end.",
    async run() {
      const fleet = await fleetBench(quick ? { sends: 25 } : {});
      const what = `${fleet.workers} workers × ${fleet.sends} Loops sends, one key`;
      return [
        {
          suite: 'fleet',
          measure: `${what}: sends per second overall`,
          flowblocks: `${fmt(fleet.shared.sendsPerSec, 2)} sends/s shared Redis pacer`,
          baseline: `10 sends/s the sandbox's limit (a pacer per process: ${fmt(fleet.alone.sendsPerSec, 2)}, ${fleet.alone.failed} sends failed)`,
          ratio: fleet.shared.sendsPerSec / 10,
          goal: { kind: 'min', value: 0.9 },
        },
        {
          suite: 'fleet',
          measure: `${what}: responses 429 (ratio: share of responses)`,
          flowblocks: `${fleet.shared.status429} of ${fleet.shared.responses} shared Redis pacer`,
          baseline: `${fleet.alone.status429} of ${fleet.alone.responses} a pacer per process`,
          ratio: fleet.shared.status429 / fleet.shared.responses,
          goal: { kind: 'max', value: 0 },
        },
      ];
    },
  },
];

const { values } = parseArgs({ options: { suite: { type: 'string' } } });
const wanted = values.suite?.split(',').map((s) => s.trim()) ?? SUITES.map((s) => s.name);
const unknown = wanted.filter((w) => !SUITES.some((s) => s.name === w));
if (unknown.length) throw new Error(`unknown suite ${unknown.join(', ')}; the suites are ${SUITES.map((s) => s.name).join(', ')}`);
const chosen = SUITES.filter((s) => wanted.includes(s.name));
// The fleet suite runs last: what it needs is checked before the first suite starts.
for (const suite of chosen) suite.check?.();

const loadAtStart = load();
log(`load average at the start: ${loadAtStart}`);
const rows: Row[] = [];
const { child, message } = await startChild<{ port: number }>('./server.ts');
try {
  for (const [i, suite] of chosen.entries()) {
    log(`${i + 1}/${chosen.length} ${suite.name} … (load ${load()})`);
    rows.push(...(await suite.run(message.port)));
  }
} finally {
  await stopChild(child);
  await closeSharedDispatcher();
}
const loadAtEnd = load();
log(`load average at the end: ${loadAtEnd}`);

if (chosen.length === SUITES.length && !quick) {
  // The fixes' before and after (partial runs, kept by hand) go under the generated table.
  const fixes = fileURLToPath(new URL('./fixes.md', import.meta.url));
  const appendix = existsSync(fixes) ? readFileSync(fixes, 'utf8') : undefined;
  const file = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
  const text = writeReport(file, rows, chosen.map((s) => s.note), { load: { start: loadAtStart, end: loadAtEnd }, appendix });
  process.stdout.write(`${text}\n\nwritten to docs/benchmarks.md; ${rows.filter(met).length} of ${rows.length} goals met\n`);
} else {
  process.stdout.write(`${table(rows)}\n\nload ${loadAtStart} → ${loadAtEnd}; ${rows.filter(met).length} of ${rows.length} goals met (not written: a partial or quick run)\n`);
}
