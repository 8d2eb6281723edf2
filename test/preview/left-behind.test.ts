/**
 * Issue 44, item 3: what the preview server leaves once closed. A browser (here undici's
 * fetch) keeps its connections alive; `close()` ends them, so it resolves at once and leaves
 * no server or socket that holds the process (Node's own count: `process.getActiveResourcesInfo()`).
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { endpointConnection, startPreviewServer } from '../../src/satellites/preview/index.js';
import { listBlocks } from '../../src/registry.js';

const tcp = () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length;

describe('a closed preview server', () => {
  it('after page loads over kept-alive connections and with a request half sent, close() ends at once and leaves no TCP handle', { timeout: 10_000 }, async () => {
    const baseline = tcp();
    const connection = endpointConnection({ tinybird: 'http://127.0.0.1:9/tinybird', loops: 'http://127.0.0.1:9/loops' }, listBlocks());
    const preview = await startPreviewServer({ port: 0, connection });
    expect(tcp()).toBe(baseline + 1);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${preview.url}api/blocks`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // The client's kept-alive socket and the server's side of it are open now, and one more
    // client is half-way through its request (no idle connection Node would close by itself).
    const port = Number(new URL(preview.url).port);
    const halfway = connect(port, '127.0.0.1');
    halfway.on('error', () => {});
    await new Promise((resolve) => halfway.once('connect', resolve));
    halfway.write(`GET /api/blocks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tcp()).toBeGreaterThan(baseline + 1);
    const t0 = performance.now();
    await preview.close();
    expect(performance.now() - t0).toBeLessThan(1_000);
    await new Promise((resolve) => halfway.once('close', resolve));
    // The clients see the server's side end on their next read of the socket.
    for (let i = 0; i < 50 && tcp() > baseline; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(tcp()).toBe(baseline);
  });
});
