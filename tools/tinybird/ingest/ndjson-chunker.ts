const NEWLINE = 0x0a;

/** One request's worth of NDJSON: whole lines only, ending in a newline. */
export interface NdjsonChunk {
  body: Buffer;
  /** Hands the body's memory back for a later chunk; call once the body is no longer used. */
  release?: () => void;
  /** 1-based number of the chunk's first non-empty line in the whole input. */
  firstRow: number;
  /** Non-empty lines in the chunk. */
  rows: number;
}

/** Reads up to `length` bytes into `target` at `offset`; 0 at the end of the input. */
export type ReadInto = (target: Buffer, offset: number, length: number) => Promise<number>;

export class LineTooLargeError extends Error {
  constructor(
    readonly row: number,
    readonly maxBytes: number,
  ) {
    super(`row ${row} is larger than the ${maxBytes}-byte per-request limit; a single event cannot be split`);
    this.name = 'LineTooLargeError';
  }
}

/** A line that holds an event: not empty, not a lone `\r`. */
const isRow = (bytes: Uint8Array, lineStart: number, nl: number) => nl > lineStart && !(nl === lineStart + 1 && bytes[lineStart] === 0x0d);

/** Counts non-empty lines (a last line without a newline included). */
export function countRows(bytes: Uint8Array): number {
  let rows = 0;
  let lineStart = 0;
  for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, lineStart)) {
    if (isRow(bytes, lineStart, nl)) rows++;
    lineStart = nl + 1;
  }
  return lineStart < bytes.length ? rows + 1 : rows;
}

/** The byte offset just past the `rows`-th non-empty line (rows as `countRows` counts them). */
export function offsetAfterRows(bytes: Uint8Array, rows: number): number {
  let seen = 0;
  let lineStart = 0;
  for (let nl = bytes.indexOf(NEWLINE); nl !== -1 && seen < rows; nl = bytes.indexOf(NEWLINE, lineStart)) {
    if (isRow(bytes, lineStart, nl)) seen++;
    lineStart = nl + 1;
  }
  return seen < rows ? bytes.length : lineStart;
}

/**
 * Splits a stream of NDJSON bytes, cut anywhere, into chunks of at most `maxBytes` that end
 * at line boundaries. Pushed bytes are copied at once into the chunk being filled, so the
 * caller may reuse its buffer; with `recycle`, chunk buffers come back through `release()`
 * and a long stream runs in a fixed set of buffers instead of churning large allocations.
 */
export class NdjsonChunker {
  private current: Buffer | undefined;
  private filled = 0;
  private nextRow = 1;
  private readonly free: Buffer[] = [];

  constructor(
    readonly maxBytes: number,
    private readonly recycle = false,
  ) {}

  /** Adds bytes; returns the chunks that are now full. */
  push(bytes: Uint8Array): NdjsonChunk[] {
    const out: NdjsonChunk[] = [];
    let offset = 0;
    while (offset < bytes.length) {
      this.current ??= this.take();
      const room = this.maxBytes - this.filled;
      if (room === 0) {
        out.push(this.cut());
        continue;
      }
      const take = Math.min(room, bytes.length - offset);
      this.current.set(bytes.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
    }
    return out;
  }

  /**
   * Reads straight into the chunk being filled, so the bytes are not copied on their way to
   * the request. Returns the chunks that are now full (maybe none), or null at the end.
   */
  async fill(read: ReadInto): Promise<NdjsonChunk[] | null> {
    this.current ??= this.take();
    if (this.filled === this.maxBytes) return [this.cut()];
    const bytesRead = await read(this.current, this.filled, this.maxBytes - this.filled);
    if (bytesRead === 0) return null;
    this.filled += bytesRead;
    return this.filled === this.maxBytes ? [this.cut()] : [];
  }

  /** The rest, as a last chunk (a missing final newline added where it fits). */
  flush(): NdjsonChunk | undefined {
    if (!this.current || this.filled === 0) return undefined;
    // The service takes a last line without a newline too; add one only where it fits.
    if (this.current[this.filled - 1] !== NEWLINE && this.filled < this.maxBytes) this.current[this.filled++] = NEWLINE;
    const chunk = this.emit(this.current, this.filled);
    this.current = undefined;
    this.filled = 0;
    return chunk;
  }

  private take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(this.maxBytes);
  }

  /** Cuts the full buffer after its last newline; the partial line moves to the next buffer. */
  private cut(): NdjsonChunk {
    const full = this.current!;
    const nl = full.lastIndexOf(NEWLINE, this.filled - 1);
    if (nl === -1) throw new LineTooLargeError(this.nextRow, this.maxBytes);
    const next = this.take();
    const tail = this.filled - (nl + 1);
    full.copy(next, 0, nl + 1, this.filled);
    const chunk = this.emit(full, nl + 1);
    this.current = next;
    this.filled = tail;
    return chunk;
  }

  private emit(store: Buffer, length: number): NdjsonChunk {
    const body = store.subarray(0, length);
    const rows = countRows(body);
    const chunk: NdjsonChunk = { body, firstRow: this.nextRow, rows };
    if (this.recycle) chunk.release = () => this.free.push(store);
    this.nextRow += rows;
    return chunk;
  }
}
