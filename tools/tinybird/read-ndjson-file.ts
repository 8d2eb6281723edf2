import { open } from 'node:fs/promises';

/**
 * Reads a file as a stream of byte pieces for `ingestEvents`, through one buffer reused for
 * every read: the chunker copies each piece before asking for the next, so a file of any
 * size is read without allocating as it goes (a `createReadStream` works too, at the cost
 * of a fresh buffer per read).
 */
export async function* readNdjsonFile(path: string, bufferBytes = 1 << 20): AsyncGenerator<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(bufferBytes);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, bufferBytes, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}
