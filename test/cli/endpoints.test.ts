import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { runTool } from '../../src/harness/run/execute.js';
import { getTool } from '../../src/registry.js';
import { cli } from './run-cli.js';

const find = ['loops_find_contact', '--param', 'apiKey=k', '--param', 'email=a@example.com', '--no-retry'];

describe('--endpoint and options.endpoints are checked where they are given', () => {
  it('run: an unknown service or an invalid URL is a usage error naming it', async () => {
    const typo = await cli(['run', ...find, '--endpoint', 'lops=http://127.0.0.1:9/x']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--endpoint lops: no service named "lops" (known: tinybird, loops, workflow');
    const bad = await cli(['run', ...find, '--endpoint', 'loops=notaurl']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--endpoint loops: not an http(s) URL: "notaurl"');
  });

  it('preview: the same, before anything starts', async () => {
    const typo = await cli(['preview', '--no-sandbox', '--endpoint', 'foo=http://127.0.0.1:9', '--once']);
    expect(typo).toMatchObject({ code: 2, stderr: expect.stringContaining('no service named "foo"') });
    const bad = await cli(['preview', '--no-sandbox', '--endpoint', 'tinybird=bar', '--once']);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('tinybird: not an http(s) URL: "bar"') });
  });

  it('executeTool refuses them as invalid_params, with no request sent', async () => {
    const params = { apiKey: 'k', email: 'a@example.com' };
    const typo = await executeTool('loops_find_contact', params, { endpoints: { lops: 'http://127.0.0.1:9' } });
    expect(typo).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'endpoints.lops' }] }, meta: { attempts: 0 } });
    const bad = await executeTool('loops_find_contact', params, { endpoints: { loops: 'notaurl' } });
    expect(bad).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'endpoints.loops' }] }, meta: { attempts: 0 } });
    // runTool (the subpath exports' entry) checks the URL too.
    const direct = await runTool(getTool('loops_find_contact')!, params, { endpoints: { loops: 'ftp://x' } });
    expect(direct).toMatchObject({ success: false, error: { code: 'invalid_params' } });
  });
});
