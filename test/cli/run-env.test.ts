/**
 * `flowblocks run` takes a service's credential and base URL from the environment variables
 * `ingest` and `mcp` read (each connection's `credential.env` and `baseUrl.env`), so a token
 * need not go on the command line; what the command line gives wins (#42).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from './run-cli.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const TOKEN = 'p.run-env-secret-token';
const LOOPS_KEY = 'loops-run-env-secret';

describe('flowblocks run reads the credential variables', () => {
  const received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.startsWith('/tb/v0/sql')) {
        res.end(JSON.stringify({ meta: [{ name: 'n', type: 'UInt8' }], data: [{ n: 1 }], rows: 1, statistics: { elapsed: 0.001, rows_read: 1, bytes_read: 1 } }));
      } else res.end('[]');
    });
  });
  let origin = '';
  beforeAll(async () => {
    const serverAddress = await listenOnLoopback(server);
    origin = serverAddress.origin;
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    received.length = 0;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  it('TINYBIRD_TOKEN and TINYBIRD_BASE_URL fill the params a user did not give; the token is masked in the output', async () => {
    vi.stubEnv('TINYBIRD_TOKEN', TOKEN);
    vi.stubEnv('TINYBIRD_BASE_URL', `${origin}/tb`);
    const out = await cli(['run', 'tinybird_query', '--param', 'query=SELECT 1 AS n FORMAT JSON', '--no-retry']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/tb/v0/sql', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(new URLSearchParams(received[0]!.body).get('q')).toBe('SELECT 1 AS n FORMAT JSON');
    expect(JSON.parse(out.stdout)).toMatchObject({ success: true, output: { data: [{ n: 1 }], rows: 1 } });
    expect(out.stdout).not.toContain(TOKEN);
  });

  it('LOOPS_API_KEY and LOOPS_BASE_URL, for a service whose base URL is an endpoint, not a param', async () => {
    vi.stubEnv('LOOPS_API_KEY', LOOPS_KEY);
    vi.stubEnv('LOOPS_BASE_URL', `${origin}/loops/api/v1`);
    const out = await cli(['run', 'loops_find_contact', '--param', 'email=ada@example.com', '--no-retry']);
    expect(out.code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'GET', url: '/loops/api/v1/contacts/find?email=ada%40example.com', headers: { authorization: `Bearer ${LOOPS_KEY}` } });
    expect(JSON.parse(out.stdout)).toMatchObject({ success: true, output: { contacts: [] } });
  });

  it('the command line wins over the environment: --param token, --param base_url and --endpoint', async () => {
    vi.stubEnv('TINYBIRD_TOKEN', 'p.from-the-environment');
    vi.stubEnv('TINYBIRD_BASE_URL', 'http://127.0.0.1:9/nothing-here');
    const tb = await cli(['run', 'tinybird_query', '--param', `token=${TOKEN}`, '--param', `base_url=${origin}/tb`, '--param', 'query=SELECT 1 AS n FORMAT JSON', '--no-retry']);
    expect(tb.code).toBe(0);
    expect(received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    vi.stubEnv('LOOPS_API_KEY', LOOPS_KEY);
    vi.stubEnv('LOOPS_BASE_URL', 'http://127.0.0.1:9/nothing-here');
    const loops = await cli(['run', 'loops_find_contact', '--endpoint', `loops=${origin}/other/v1`, '--param', 'email=ada@example.com', '--no-retry']);
    expect(loops.code).toBe(0);
    expect(received[1]!.url).toBe('/other/v1/contacts/find?email=ada%40example.com');
  });

  it('without the variables, a missing credential is still the tool\'s own invalid_params', async () => {
    vi.stubEnv('TINYBIRD_TOKEN', '');
    const out = await cli(['run', 'tinybird_query', '--param', 'query=SELECT 1', '--no-retry']);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stderr)).toMatchObject({ success: false, error: { code: 'invalid_params', issues: expect.arrayContaining([expect.objectContaining({ path: 'token' })]) } });
    expect(received).toHaveLength(0);
  });
});
