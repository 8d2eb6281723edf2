/**
 * One ingest run in a fresh process, so its peak RSS is its own:
 *   node bench/ingest-worker.mjs <stream|raw> <gzip 0|1> <file> <port>
 * Sends `{ mbPerSec, seconds, peakRssMb, requests }` to the parent over IPC.
 */
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Agent, request } from 'undici';
import { ingestEvents, readNdjsonFile } from '../dist/tools/tinybird/index.js';
import { NdjsonChunker } from '../dist/tools/tinybird/ingest/ndjson-chunker.js';
import { closeSharedDispatcher } from '../dist/src/index.js';

const gzipAsync = promisify(gzip);
const [mode, gz, file, port] = process.argv.slice(2);
const useGzip = gz === '1';
const CHUNK = Number(process.env.BENCH_CHUNK ?? 10_000_000);
// Raw undici posts 4 at a time (the most this machine gains from); ingestEvents runs with its
// own default unless BENCH_CONCURRENCY sets both.
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const streamConcurrency = process.env.BENCH_CONCURRENCY ? CONCURRENCY : undefined;
const base = `http://127.0.0.1:${port}`;
const size = (await stat(file)).size;

async function raw() {
  // Pre-built chunks (not timed): the limit is then undici and, with gzip, zlib.
  const chunker = new NdjsonChunker(CHUNK);
  const chunks = chunker.push(await readFile(file));
  const last = chunker.flush();
  if (last) chunks.push(last);
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
  const headers = { authorization: 'Bearer p.bench-token', 'content-type': 'application/x-ndjson' };
  if (useGzip) headers['content-encoding'] = 'gzip';
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++];
        const body = useGzip ? await gzipAsync(chunk.body) : chunk.body;
        const res = await request(`${base}/v0/events?name=events`, { method: 'POST', headers, body, dispatcher: agent });
        await res.body.dump();
        if (res.statusCode !== 202) throw new Error(`raw post answered ${res.statusCode}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return { seconds, requests: chunks.length };
}

async function stream() {
  const started = performance.now();
  const report = await ingestEvents(
    { base_url: base, token: 'p.bench-token', datasource: 'events' },
    readNdjsonFile(file),
    { gzip: useGzip, concurrency: streamConcurrency, maxRequestBytes: CHUNK },
  );
  const seconds = (performance.now() - started) / 1000;
  if (report.failed.length) throw new Error(`ingest failed: ${report.failed[0].error.message}`);
  await closeSharedDispatcher();
  return { seconds, requests: report.requests };
}

const { seconds, requests } = mode === 'raw' ? await raw() : await stream();
process.send({ mbPerSec: size / 1e6 / seconds, seconds, requests, peakRssMb: process.resourceUsage().maxRSS / 1024 });
process.disconnect();
