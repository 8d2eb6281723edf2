import { describe, expect, it } from 'vitest';
import { NdjsonChunker, type NdjsonChunk } from '../../../tools/tinybird/ingest/ndjson-chunker.js';

/**
 * The chunker driven by `fill` alone, a bounded number of rounds: a cut in the wrong place
 * fails here by its chunk bodies, where the `push` tests (ndjson-chunker.test.ts), whose loop
 * is inside the chunker, can only hang on it.
 */
describe('NdjsonChunker.fill', () => {
  it('fill reads straight into the chunk and cuts it at the same places as push', async () => {
    const input = Buffer.from('aaaa\nbbbb\ncccc\ndd\n');
    let at = 0;
    const read = async (target: Buffer, offset: number, length: number) => {
      const n = Math.min(length, 5, input.length - at);
      input.copy(target, offset, at, at + n);
      at += n;
      return n;
    };
    const chunker = new NdjsonChunker(16);
    const chunks: NdjsonChunk[] = [];
    for (let round = 0; round < 20; round++) {
      const got = await chunker.fill(read);
      if (got === null) break;
      chunks.push(...got);
    }
    const last = chunker.flush();
    if (last) chunks.push(last);
    expect(chunks.map((chunk) => chunk.body.toString())).toEqual(['aaaa\nbbbb\ncccc\n', 'dd\n']);
    expect(chunks.map((chunk) => chunk.firstRow)).toEqual([1, 4]);
  });

});
