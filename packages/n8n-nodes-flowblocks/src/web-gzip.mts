/**
 * Gzip in n8n (built in place of `src/harness/send/gzip.ts`): the web platform's CompressionStream,
 * since n8n Cloud refuses a node that loads `node:zlib`. The same bytes on the wire: a gzip member.
 */
import type { gzip as nodeGzip } from '../../../src/harness/send/gzip.js';

export const gzip: typeof nodeGzip = async (payload) => {
  const compressed = new Blob([payload]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
};
