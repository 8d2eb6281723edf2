import { offsetAfterRows, type NdjsonChunk } from './ndjson-chunker.js';

/**
 * Drops the first `skipRows` rows of a chunk stream (to resume a run), cutting the chunk
 * that straddles the boundary at a line; row numbers stay those of the whole input.
 */
export async function* skipRows(
  chunks: Iterable<NdjsonChunk> | AsyncIterable<NdjsonChunk>,
  skip: number,
  onSkipped: (rows: number, bytes: number) => void,
): AsyncGenerator<NdjsonChunk> {
  for await (const chunk of chunks) {
    const before = Math.min(chunk.rows, skip - chunk.firstRow + 1);
    if (before <= 0) {
      yield chunk;
    } else if (before === chunk.rows) {
      onSkipped(chunk.rows, chunk.body.length);
      chunk.release?.();
    } else {
      const cut = offsetAfterRows(chunk.body, before);
      onSkipped(before, cut);
      yield { ...chunk, body: chunk.body.subarray(cut), firstRow: chunk.firstRow + before, rows: chunk.rows - before };
    }
  }
}
