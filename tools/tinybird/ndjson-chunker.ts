const NEWLINE = 0x0a;

/** One request's worth of NDJSON: whole lines only, ending in a newline. */
export interface NdjsonChunk {
  body: Buffer;
  /** 1-based number of the chunk's first non-empty line in the whole input. */
  firstRow: number;
  /** Non-empty lines in the chunk. */
  rows: number;
}

export class LineTooLargeError extends Error {
  constructor(
    readonly row: number,
    readonly maxBytes: number,
  ) {
    super(`row ${row} is larger than the ${maxBytes}-byte per-request limit; a single event cannot be split`);
    this.name = 'LineTooLargeError';
  }
}

/** Counts non-empty lines (a last line without a newline included). */
export function countRows(bytes: Uint8Array): number {
  let rows = 0;
  let lineStart = 0;
  for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, lineStart)) {
    if (nl > lineStart && !(nl === lineStart + 1 && bytes[lineStart] === 0x0d)) rows++;
    lineStart = nl + 1;
  }
  return lineStart < bytes.length ? rows + 1 : rows;
}

/**
 * Splits a stream of NDJSON bytes, cut anywhere, into chunks of at most `maxBytes` that end
 * at line boundaries. It holds at most `maxBytes` plus one pushed buffer, whatever the input
 * size, so memory stays bounded.
 */
export class NdjsonChunker {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private nextRow = 1;

  constructor(readonly maxBytes: number) {}

  /** Adds bytes; returns the chunks that are now full. */
  push(bytes: Uint8Array): NdjsonChunk[] {
    if (bytes.length === 0) return [];
    this.pending.push(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    this.pendingBytes += bytes.length;
    const out: NdjsonChunk[] = [];
    while (this.pendingBytes > this.maxBytes) out.push(this.cut());
    return out;
  }

  /** The rest, as a last chunk (a missing final newline added). */
  flush(): NdjsonChunk | undefined {
    if (this.pendingBytes === 0) return undefined;
    let body = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    // The service takes a last line without a newline too; add one only where it fits.
    if (body[body.length - 1] !== NEWLINE && body.length < this.maxBytes) body = Buffer.concat([body, Buffer.from('\n')]);
    return this.emit(body);
  }

  /** Cuts the pending bytes at the last newline within `maxBytes`. */
  private cut(): NdjsonChunk {
    let offset = 0;
    let cutAt = -1;
    for (const buffer of this.pending) {
      const room = this.maxBytes - offset;
      const nl = buffer.length <= room ? buffer.lastIndexOf(NEWLINE) : buffer.lastIndexOf(NEWLINE, room - 1);
      if (nl !== -1) cutAt = offset + nl;
      if (buffer.length >= room) break;
      offset += buffer.length;
    }
    if (cutAt === -1) throw new LineTooLargeError(this.nextRow, this.maxBytes);
    const all = Buffer.concat(this.pending, this.pendingBytes);
    const rest = all.subarray(cutAt + 1);
    this.pending = rest.length ? [rest] : [];
    this.pendingBytes = rest.length;
    return this.emit(all.subarray(0, cutAt + 1));
  }

  private emit(body: Buffer): NdjsonChunk {
    const rows = countRows(body);
    const chunk = { body, firstRow: this.nextRow, rows };
    this.nextRow += rows;
    return chunk;
  }
}
