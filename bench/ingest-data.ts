/** Fixed benchmark events: the same bytes on every run and every machine. */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const COUNTRIES = ['ES', 'FR', 'DE', 'US', 'BR', 'JP', 'IN', 'GB'];
const PATHS = ['/docs/ingest', '/docs/query', '/pricing', '/blog/streaming-ingest', '/changelog', '/signup'];

/** Event `i` as one NDJSON line (about 200 bytes). */
export function eventLine(i: number): string {
  return `${JSON.stringify({
    timestamp: `2026-11-22 ${String(10 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`,
    event: i % 5 === 0 ? 'signup' : 'page_view',
    user_id: `u${String(i % 50_000).padStart(6, '0')}`,
    session_id: `s${(i * 2654435761) % 1_000_000_007}`,
    path: PATHS[i % PATHS.length],
    country: COUNTRIES[i % COUNTRIES.length],
    duration_ms: (i * 37) % 5000,
    props: { plan: i % 3 === 0 ? 'pro' : 'free', ab: i % 2 ? 'a' : 'b' },
  })}\n`;
}

/** Writes `count` events to `file`; returns its size in bytes. */
export async function writeEvents(file: string, count: number): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  let batch = '';
  for (let i = 0; i < count; i++) {
    batch += eventLine(i);
    if (batch.length > 1 << 20) {
      bytes += Buffer.byteLength(batch);
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  bytes += Buffer.byteLength(batch);
  out.end(batch);
  await once(out, 'finish');
  return bytes;
}
