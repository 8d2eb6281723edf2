/**
 * Issue 44, item 4: the n8n package's gzip (`packages/n8n-nodes-flowblocks/src/web-gzip.mts`,
 * built in place of `src/harness/gzip.ts`, since n8n Cloud refuses `node:zlib`) under the unit
 * suite: one gzip member of exactly the payload's bytes, as the harness's own gzip sends.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzip as nodeGzip } from '../../src/harness/send/gzip.js';
import { gzip } from '../../packages/n8n-nodes-flowblocks/src/web-gzip.mjs';

describe('n8n package: gzip with the web platform\'s CompressionStream', () => {
  it('is one gzip member that decodes to the payload, multi-byte characters and all', async () => {
    const payload = new TextEncoder().encode(`${'{"row":"ü€😀"}\n'.repeat(2_000)}`);
    const out = await gzip(payload);
    expect(out).toBeInstanceOf(Uint8Array);
    // A gzip member: magic bytes, deflate.
    expect([...out.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
    expect(out.length).toBeLessThan(payload.length / 10);
    expect(Buffer.from(gunzipSync(out)).equals(Buffer.from(payload))).toBe(true);
    // What the harness's own gzip decodes to, the same.
    expect(Buffer.from(gunzipSync(await nodeGzip(payload))).equals(Buffer.from(gunzipSync(out)))).toBe(true);
  });

  it('an empty payload is still a whole member', async () => {
    expect(gunzipSync(await gzip(new Uint8Array(0)))).toHaveLength(0);
  });
});
