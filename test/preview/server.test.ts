import { createServer, get, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedDispatcher } from '../../src/harness/send/dispatcher.js';
import { endpointConnection, startPreviewServer, type BlocksResponse, type PreviewServer } from '../../src/satellites/preview/index.js';
import { pageScript } from '../../src/satellites/preview/page/script.js';
import { listBlocks } from '../../src/registry.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const KEY = 'loops-preview-secret-key';

describe('preview server', () => {
  // A stand-in Loops: a valid key names its team, any other is refused with the key echoed back.
  const seen: IncomingHttpHeaders[] = [];
  const loops = createServer((req, res) => {
    seen.push(req.headers);
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization === `Bearer ${KEY}`) return res.end(JSON.stringify({ success: true, teamName: 'Preview team' }));
    res.statusCode = 401;
    res.end(JSON.stringify({ success: false, message: `Invalid API key ${req.headers.authorization?.slice(7)}` }));
  });
  let loopsUrl = '';
  let preview: PreviewServer;
  let origin = '';

  beforeAll(async () => {
    const loopsAddress = await listenOnLoopback(loops);
    loopsUrl = `${loopsAddress.origin}/api/v1`;
    const connection = endpointConnection({ tinybird: 'http://127.0.0.1:9/tinybird', loops: 'http://127.0.0.1:9/unused' }, listBlocks());
    preview = await startPreviewServer({ port: 0, connection });
    origin = preview.url.replace(/\/$/, '');
  });
  afterAll(async () => {
    await preview.close();
    await new Promise((resolve) => loops.close(resolve));
    await closeSharedDispatcher();
  });

  const run = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${origin}/api/run`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('serves the page, its script and its styles', async () => {
    const page = await fetch(preview.url);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('<script src="/app.js" defer></script>');
    const script = await fetch(`${origin}/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    // The script is a string the compiler never sees: at least it must parse.
    expect(() => new Function(pageScript)).not.toThrow();
    expect((await fetch(`${origin}/app.css`)).status).toBe(200);
    expect((await fetch(`${origin}/nope`)).status).toBe(404);
  });

  it('answers every block with its manifest, icon and prefilled values', async () => {
    const body = (await (await fetch(`${origin}/api/blocks`)).json()) as BlocksResponse;
    expect(body.blocks.map((b) => b.manifest.type)).toEqual(listBlocks().map((b) => b.type));
    expect(body.blocks.map((b) => b.manifest.icon)).toEqual(listBlocks().map((b) => b.manifest.icon));
    const [tinybird, loopsBlock, workflow] = body.blocks;
    expect(tinybird).toMatchObject({ values: { base_url: 'http://127.0.0.1:9/tinybird' } });
    expect(tinybird!.endpoint).toBeUndefined();
    expect(loopsBlock).toMatchObject({ values: {}, endpoint: { service: 'loops', url: 'http://127.0.0.1:9/unused' } });
    expect(workflow).toEqual({ manifest: expect.objectContaining({ type: 'workflow' }), values: {} });
    expect(body.connection).toBe('your endpoints: tinybird http://127.0.0.1:9/tinybird, loops http://127.0.0.1:9/unused');
  });

  it('answers only its own page: another Host, or a run not sent as JSON, is refused', async () => {
    const port = new URL(preview.url).port;
    // fetch cannot set Host; a rebound DNS name arrives with its own name in it.
    const viaOtherHost = await new Promise<number>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/api/blocks', headers: { host: `attacker.example:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      }).on('error', reject);
    });
    expect(viaOtherHost).toBe(403);
    const form = await run('type=loops', { 'content-type': 'text/plain' });
    expect(form.status).toBe(403);
    expect(seen).toHaveLength(0);
  });

  it('runs a block: editor values resolved to the tool, the page endpoint over the default one', async () => {
    const res = await run({ type: 'loops', values: { operation: 'test_api_key', apiKey: KEY }, endpoints: { loops: loopsUrl } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      tool: 'loops_test_api_key',
      result: { success: true, output: { success: true, teamName: 'Preview team' }, meta: { status: 200, attempts: 1 } },
    });
    expect(seen.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });

  it('returns a failed call as its normalized error, with the key masked', async () => {
    const wrong = 'loops-preview-wrong-key';
    const res = await run({ type: 'loops', values: { operation: 'test_api_key', apiKey: wrong }, endpoints: { loops: loopsUrl } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ result: { success: false, error: { code: 'unauthorized', status: 401 } } });
    expect(text).not.toContain(wrong);
  });

  it('reports invalid params as a result, and sends nothing', async () => {
    const before = seen.length;
    const res = await run({ type: 'loops', values: { operation: 'find_contact', apiKey: KEY }, endpoints: { loops: loopsUrl } });
    expect(await res.json()).toMatchObject({ tool: 'loops_find_contact', result: { success: false, error: { code: 'invalid_params' } } });
    expect(seen.length).toBe(before);
  });

  it('refuses what cannot be run: an unknown block or operation, JSON that does not parse, a body that is not a run', async () => {
    expect(await (await run({ type: 'nope', values: {} })).json()).toEqual({ error: 'no block nope' });
    const op = await run({ type: 'loops', values: { operation: 'fly' } });
    expect([op.status, ((await op.json()) as { error: string }).error]).toEqual([400, expect.stringContaining('has no operation fly')]);
    const json = await run({ type: 'loops', values: { operation: 'send_event', eventProperties: '{ plan: pro }' } });
    expect([json.status, ((await json.json()) as { error: string }).error]).toEqual([400, expect.stringMatching(/^Event properties is not valid JSON/)]);
    expect((await run('{"type":')).status).toBe(400);
    expect((await run({ values: {} })).status).toBe(400);
  });
});

describe('endpointConnection', () => {
  it('gives a block that takes base_url its field value, and the others an endpoints override', () => {
    const c = endpointConnection({ workflow: 'http://127.0.0.1:1/workflow', loops: 'http://127.0.0.1:1/loops/api/v1' }, listBlocks());
    expect(c.values).toEqual({ workflow: { base_url: 'http://127.0.0.1:1/workflow' } });
    expect(c.endpoints).toEqual({ loops: 'http://127.0.0.1:1/loops/api/v1' });
    expect(endpointConnection({}, listBlocks()).label).toBe('no sandbox: enter base URLs and credentials');
  });
});
