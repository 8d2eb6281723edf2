import type { IncomingMessage } from 'node:http';

/**
 * A request's whole body. Past `maxBytes` the request is destroyed with `tooLarge` as its
 * error, so nothing more is buffered and the promise rejects with it.
 */
export function readRequestBody(req: IncomingMessage, maxBytes: number, tooLarge: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) req.destroy(new Error(tooLarge));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
