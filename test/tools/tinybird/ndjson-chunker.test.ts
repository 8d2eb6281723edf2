import { describe, expect, it } from 'vitest';
import { countRows, LineTooLargeError, NdjsonChunker, offsetAfterRows, type NdjsonChunk } from '../../../tools/tinybird/ingest/ndjson-chunker.js';

function chunkAll(pieces: (string | Buffer)[], maxBytes: number): NdjsonChunk[] {
  const chunker = new NdjsonChunker(maxBytes);
  const out = pieces.flatMap((piece) => chunker.push(typeof piece === 'string' ? Buffer.from(piece) : piece));
  const last = chunker.flush();
  return last ? [...out, last] : out;
}

const lines = Array.from({ length: 500 }, (_, i) => JSON.stringify({ i, name: `row-${i}`, pad: 'x'.repeat(i % 37) }));
const text = lines.join('\n') + '\n';

describe('NdjsonChunker', () => {
  it.each([100, 128, 1000, 4096, 1_000_000])('keeps line boundaries and stays under a %i-byte cap', (cap) => {
    // Feed the input cut at odd places, as a file stream would.
    const bytes = Buffer.from(text);
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 333) pieces.push(bytes.subarray(at, at + 333));
    const chunks = chunkAll(pieces, cap);
    for (const chunk of chunks) {
      expect(chunk.body.length).toBeLessThanOrEqual(cap);
      expect(chunk.body.at(-1)).toBe(0x0a);
    }
    expect(Buffer.concat(chunks.map((c) => c.body)).toString()).toBe(text);
    expect(chunks.reduce((n, c) => n + c.rows, 0)).toBe(500);
    // Row ranges are contiguous and 1-based.
    let next = 1;
    for (const chunk of chunks) {
      expect(chunk.firstRow).toBe(next);
      expect(chunk.body.toString().split('\n')[0]).toBe(lines[next - 1]);
      next += chunk.rows;
    }
  });

  it('cuts just after the last newline that fits: each chunk ends with its newline, the next starts with the next row', () => {
    const bodies = (chunks: NdjsonChunk[]) => chunks.map((chunk) => chunk.body.toString());
    // 18 bytes into 16-byte chunks: the cut comes after "cccc\n", the partial "d" moves on.
    expect(bodies(chunkAll(['aaaa\nbbbb\ncccc\ndd\n'], 16))).toEqual(['aaaa\nbbbb\ncccc\n', 'dd\n']);
    expect(bodies(chunkAll(['aaaa\nbbbb\n', 'cccc\ndd\n'], 10))).toEqual(['aaaa\nbbbb\n', 'cccc\ndd\n']);
    // A line that fills the chunk exactly, newline included, is cut with it.
    const exact = chunkAll(['123456789\nab\n'], 10);
    expect(bodies(exact)).toEqual(['123456789\n', 'ab\n']);
    expect(exact.map((c) => [c.firstRow, c.rows])).toEqual([[1, 1], [2, 1]]);
  });

  it('counts one-character rows, not empty or lone-CR lines, and finds the offset after n rows', () => {
    expect(countRows(Buffer.from('x\ny\n\r\n\nz'))).toBe(3);
    const bytes = Buffer.from('a\n\nb\n\r\nc');
    expect([0, 1, 2, 3, 4].map((n) => offsetAfterRows(bytes, n))).toEqual([0, 2, 5, bytes.length, bytes.length]);
  });

  it('fill cuts a chunk filled exactly, then reports the end', async () => {
    const input = Buffer.from('abc\ndef\n');
    let given = false;
    const chunker = new NdjsonChunker(8);
    const read = async (target: Buffer, offset: number) => (given ? 0 : ((given = true), input.copy(target, offset)));
    const first = await chunker.fill(read);
    expect(first!.map((c) => [c.body.toString(), c.rows])).toEqual([['abc\ndef\n', 2]]);
    expect(await chunker.fill(read)).toBeNull();
    expect(chunker.flush()).toBeUndefined();
    const error = new LineTooLargeError(3, 8);
    expect([error.name, error.row, error.maxBytes]).toEqual(['LineTooLargeError', 3, 8]);
  });

  it('hands chunk buffers back for reuse only when asked to recycle', () => {
    const input = Buffer.from('aaa\nbbb\nccc\nddd\neee\n');
    expect(new NdjsonChunker(8).push(input)[0]!.release).toBeUndefined();
    const chunker = new NdjsonChunker(8, true);
    const [first] = chunker.push(Buffer.from('aaa\nbbb\nc'));
    first!.release!();
    const later = chunker.push(Buffer.from('cc\nddd\neee\n'));
    expect(later.map((c) => c.body.toString())).toEqual(['ccc\nddd\n']);
    // The next buffer taken after the release is the released one.
    expect(later[0]!.body.buffer === first!.body.buffer || chunker.flush()!.body.buffer === first!.body.buffer).toBe(true);
  });

  it('refuses a single line larger than the cap, naming its row', () => {
    const input = `{"a":1}\n{"b":"${'y'.repeat(200)}"}\n{"c":3}\n`;
    expect(() => chunkAll([input], 100)).toThrow(LineTooLargeError);
    expect(() => chunkAll([input], 100)).toThrow('row 2 is larger than the 100-byte per-request limit');
  });

  it('adds a missing final newline and skips empty lines in row counts', () => {
    const chunks = chunkAll(['{"a":1}\n\n{"b":2}'], 1000);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.body.toString()).toBe('{"a":1}\n\n{"b":2}\n');
    expect(chunks[0]!.rows).toBe(2);
    expect(countRows(Buffer.from('a\r\n\r\nb'))).toBe(2);
    expect(chunkAll([], 10)).toEqual([]);
    expect(new NdjsonChunker(10).push(Buffer.alloc(0))).toEqual([]);
  });
});
