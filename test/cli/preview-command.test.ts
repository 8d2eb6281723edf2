import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

describe('flowblocks preview', () => {
  it('prints its usage, and 2 for bad options', async () => {
    expect(await cli(['preview', '--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('--no-sandbox') });
    expect(await cli(['preview', '--port', 'x'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--port takes a port number from 0 to 65535 (0 picks a free one), got "x"') });
    expect(await cli(['preview', '--endpoint', 'tinybird=http://127.0.0.1:1'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--endpoint goes with --no-sandbox'),
    });
    expect(await cli(['preview', '--no-sandbox', '--endpoint', 'nourl'])).toMatchObject({ code: 2 });
  });

  it('serves the page against the given endpoints without a sandbox', async () => {
    const out = await cli(['preview', '--no-sandbox', '--once', '--port', '0', '--endpoint', 'tinybird=http://127.0.0.1:1/tinybird']);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toMatch(/^flowblocks preview: http:\/\/127\.0\.0\.1:\d+\/\n {2}running against your endpoints/);
  });

  it('starts the sandbox alongside by default', async () => {
    const out = await cli(['preview', '--once', '--port', '0']);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toMatch(/running against the sandbox at http:\/\/127\.0\.0\.1:\d+ \(demo credentials prefilled\)/);
  });

  it('says why when the page cannot listen', async () => {
    const taken = createServer();
    const takenAddress = await listenOnLoopback(taken);
    const port = String(takenAddress.port);
    const out = await cli(['preview', '--no-sandbox', '--once', '--port', port]);
    await new Promise((resolve) => taken.close(resolve));
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^the preview did not start: listen EADDRINUSE/);
  });
});
