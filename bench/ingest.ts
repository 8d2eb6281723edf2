/** 3. Streaming ingest against raw undici posting the same chunks, plain and gzip. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEvents } from './ingest-data.js';
import { median, runChild } from './measure.js';

export interface IngestRow {
  compression: 'none' | 'gzip';
  rawMbPerSec: number;
  streamMbPerSec: number;
  streamPeakRssMb: number;
}

interface WorkerResult {
  mbPerSec: number;
  seconds: number;
  requests: number;
  peakRssMb: number;
}

export async function ingestBench(port: number, { events = 1_000_000, runs = 3 } = {}): Promise<{ rows: IngestRow[]; bytes: number; events: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-bench-'));
  const file = join(dir, 'events.ndjson');
  try {
    const bytes = await writeEvents(file, events);
    const rows: IngestRow[] = [];
    for (const gzip of ['0', '1']) {
      const raw: number[] = [];
      const stream: number[] = [];
      const rss: number[] = [];
      for (let r = 0; r < runs; r++) {
        raw.push((await runChild<WorkerResult>('./ingest-worker.mjs', ['raw', gzip, file, String(port)])).mbPerSec);
        const s = await runChild<WorkerResult>('./ingest-worker.mjs', ['stream', gzip, file, String(port)]);
        stream.push(s.mbPerSec);
        rss.push(s.peakRssMb);
      }
      rows.push({ compression: gzip === '1' ? 'gzip' : 'none', rawMbPerSec: median(raw), streamMbPerSec: median(stream), streamPeakRssMb: Math.max(...rss) });
    }
    return { rows, bytes, events };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
