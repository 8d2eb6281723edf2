/**
 * `mock.install()` answers every flowblocks call that passes no dispatcher, for code that does
 * not take options from its caller, and `uninstall()` puts back what it replaced (#42).
 * Scoped to the package's own calls: undici's global dispatcher and fetch are left alone.
 */
import { createServer } from 'node:http';
import { getGlobalDispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { mockServices, type ServiceMock } from '../../src/testing/index.js';
import { ingestEvents } from '../../tools/tinybird/index.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const LOOPS_KEY = 'loops-install-secret-key';
const tinybird = { base_url: 'https://api.tinybird.co', token: 'p.install-secret-token' };

/** The code under test: it calls the tools with no options at all. */
async function countSignups(): Promise<number> {
  const result = await executeTool('tinybird_query', { ...tinybird, query: "SELECT count() AS n FROM events WHERE event = 'signup' FORMAT JSON" });
  if (!result.success) throw new Error(result.error.code);
  return (result.output.data[0] as { n: number }).n;
}

describe('mock.install()', () => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  let origin = '';
  const installed: ServiceMock[] = [];
  beforeAll(async () => {
    const serverAddress = await listenOnLoopback(server);
    origin = serverAddress.origin;
  });
  afterEach(() => {
    for (const mock of installed.splice(0).reverse()) mock.uninstall();
    hits.length = 0;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  it('answers calls that pass no dispatcher, and records them as sent', async () => {
    const mock = mockServices().reply('tinybird_query', { meta: [{ name: 'n', type: 'UInt64' }], data: [{ n: 7 }], rows: 1, statistics: { elapsed: 0.001, rows_read: 1, bytes_read: 8 } }).install();
    installed.push(mock);
    expect(await countSignups()).toBe(7);
    const [call] = mock.calls('tinybird_query');
    expect(call).toMatchObject({ method: 'POST', path: '/v0/sql', body: { q: "SELECT count() AS n FROM events WHERE event = 'signup' FORMAT JSON" }, outcome: 200 });
    expect(call!.headers.authorization).toBe('Bearer [redacted]');
    // ingestEvents goes through it too.
    const report = await ingestEvents({ ...tinybird, datasource: 'events' }, ['{"event":"signup"}\n']);
    expect(report.requests).toBe(1);
    expect(mock.calls('tinybird_events')).toHaveLength(1);
  });

  it('leaves undici\'s global dispatcher and fetch alone', async () => {
    const before = getGlobalDispatcher();
    installed.push(mockServices().install());
    expect(getGlobalDispatcher()).toBe(before);
    const res = await fetch(`${origin}/not-ours`);
    expect(res.status).toBe(200);
    expect(hits).toEqual(['GET /not-ours']);
  });

  it('uninstall() sends calls to the network again; a call\'s own dispatcher always wins', async () => {
    const mock = mockServices().install();
    const own = mockServices();
    const params = { apiKey: LOOPS_KEY, email: 'ada@example.com' };
    expect(await executeTool('loops_find_contact', params, { endpoints: { loops: `${origin}/api/v1` } })).toMatchObject({ success: true });
    expect(await executeTool('loops_find_contact', params, { dispatcher: own, endpoints: { loops: `${origin}/api/v1` } })).toMatchObject({ success: true });
    expect([mock.calls().length, own.calls().length, hits.length]).toEqual([1, 1, 0]);
    mock.uninstall();
    expect(await executeTool('loops_find_contact', params, { endpoints: { loops: `${origin}/api/v1` }, retry: false })).toMatchObject({ success: true, output: { contacts: [] } });
    expect(hits).toEqual(['GET /api/v1/contacts/find?email=ada%40example.com']);
    expect(mock.calls()).toHaveLength(1);
  });

  it('nests: the last installed answers, and uninstalling it puts the one before back; out of order is refused', async () => {
    const outer = mockServices().install();
    const inner = mockServices().install();
    installed.push(outer, inner);
    await executeTool('loops_test_api_key', { apiKey: LOOPS_KEY });
    expect([outer.calls().length, inner.calls().length]).toEqual([0, 1]);
    expect(() => outer.uninstall()).toThrow(/uninstall the mock installed last first/);
    inner.uninstall();
    await executeTool('loops_test_api_key', { apiKey: LOOPS_KEY });
    expect([outer.calls().length, inner.calls().length]).toEqual([1, 1]);
  });
});
