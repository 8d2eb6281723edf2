import { open } from 'node:fs/promises';
import type { ReadInto } from './ndjson-chunker.js';

/**
 * An NDJSON file for `ingestEvents`. Iterated, it yields byte pieces through one reused
 * buffer (any consumer works). `ingestEvents` instead reads it straight into the request
 * buffers it fills (`openReader`), so the bytes are never copied on the way to the socket.
 */
export class NdjsonFile implements AsyncIterable<Uint8Array> {
  constructor(
    readonly path: string,
    private readonly bufferBytes = 1 << 20,
  ) {}

  /** A reader straight into the caller's buffers, and its `close`. */
  async openReader(): Promise<{ read: ReadInto; close: () => Promise<void> }> {
    const file = await open(this.path, 'r');
    return {
      read: async (target, offset, length) => (await file.read(target, offset, length, null)).bytesRead,
      close: () => file.close(),
    };
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    const { read, close } = await this.openReader();
    try {
      const buffer = Buffer.allocUnsafe(this.bufferBytes);
      for (;;) {
        const bytesRead = await read(buffer, 0, this.bufferBytes);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await close();
    }
  }
}

/**
 * A file as a source for `ingestEvents` (or any consumer of byte pieces): read as it is
 * sent, in bounded memory, whatever its size.
 */
export function readNdjsonFile(path: string, bufferBytes?: number): NdjsonFile {
  return new NdjsonFile(path, bufferBytes);
}
