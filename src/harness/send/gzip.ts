/**
 * A request body gzipped (Tinybird's ingest sends its chunks so). The n8n community package
 * swaps this file for the web platform's `CompressionStream` (n8n Cloud refuses `node:zlib`).
 */
import { gzip as zlibGzip } from 'node:zlib';
import { promisify } from 'node:util';

const gzipAsync = promisify(zlibGzip);

/**
 * zlib's output buffer. Each one filled is a round trip from the thread pool to the main
 * thread, so the default 16 KB turns a 10 MB ingest chunk into a hundred hops that wait
 * whenever the main thread is busy sending; a quarter of the input (up to 1 MB) takes a few.
 */
function gzipChunkSize(payload: string | Uint8Array): number {
  const size = typeof payload === 'string' ? payload.length : payload.byteLength;
  return Math.min(1 << 20, Math.max(16 * 1024, size >> 2));
}

export function gzip(payload: string | Uint8Array): Promise<Uint8Array> {
  return gzipAsync(payload, { chunkSize: gzipChunkSize(payload) });
}
