/**
 * Hostile input against the sandbox itself: SQL that reaches files, URLs or other settings,
 * requests from a rebound DNS name or another site, and ids or redirects that lead outside
 * the sandbox. Every case is a real request to a running sandbox; a refused SQL case must
 * answer 403 (400 for ClickHouse's own syntax error) in the service's JSON shape, read no
 * canary and write no file.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { call, eventually } from '../sandbox/helpers.js';
import { canary } from './canary.js';
import { hostileTally } from './tally.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const family = hostileTally('sandbox');
afterAll(() => family.save());

const root = mkdtempSync(join(tmpdir(), 'flowblocks-hostile-sandbox-'));
const dataDir = join(root, 'data');
const outside = join(root, 'outside');
const SECRET = canary('file');
const CANARY = join(outside, 'canary.txt');
const out = (name: string) => join(outside, `${name}.out`);

/** Requests the hostile SQL sends its `url()`/`s3()` reads to: any hit is a leak. */
let listener: { server: Server; port: number; hits: string[] };
let foreign: { server: Server; port: number; hits: string[] };
const FOREIGN_BODY = 'root:x:0:0:root:/root:/bin/bash\nadmin_password=hunter2-canary\n';
/** A gzip bomb: 16 members of 64 MiB of zeros each, 1 GiB inflated from about 1 MB. */
const BOMB = (() => {
  const member = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: 16 }, () => member));
})();
/** Bytes the listener wrote of an endless download before the sandbox hung up. */
let streamed = 0;
let sb: Sandbox;
let port: number;
/** The admin port: the workflow admin routes are served there only. */
let adminPort: number;

beforeAll(async () => {
  mkdirSync(outside, { recursive: true });
  writeFileSync(CANARY, `${SECRET}\n`);
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/to-mapped') return void res.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${listener.port}/secret.csv` }).end();
    if (req.url === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    if (req.url === '/to-loopback') return void res.writeHead(307, { location: '/rows.csv' }).end();
    if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/to-foreign') return void res.writeHead(302, { location: `http://localhost:${foreign.port}/etc/passwd` }).end();
    if (req.url === '/mixed.ndjson') return void res.writeHead(200).end(`${FOREIGN_BODY}{"timestamp":"2026-11-22 10:00:00","event":"mixed","user_id":"m1"}\n`);
    if (req.url === '/bomb.csv.gz') return void res.writeHead(200).end(BOMB);
    if (req.url === '/declared-huge.csv') return void res.writeHead(200, { 'content-length': String(200 * 1024 * 1024) }).end('x');
    if (req.url === '/endless.csv') {
      // Chunked, no length: 1 MiB at a time until the client hangs up.
      const chunk = Buffer.alloc(1024 * 1024, 0x41);
      const pump = () => {
        while (!res.destroyed && streamed < 512 * 1024 * 1024) {
          streamed += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => res.destroy());
      return void pump();
    }
    res.writeHead(200).end(`2026-11-22 10:00:00,${req.url === '/secret.csv' ? 'leaked' : 'imported'},u1,,\n`);
  });
  const serverAddress = await listenOnLoopback(server);
  listener = { server, port: serverAddress.port, hits };
  // Another local service, not named at start: the sandbox must never fetch it.
  const foreignHits: string[] = [];
  const foreignServer = createServer((req, res) => {
    foreignHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end(FOREIGN_BODY);
  });
  const foreignServerAddress = await listenOnLoopback(foreignServer);
  foreign = { server: foreignServer, port: foreignServerAddress.port, hits: foreignHits };
  // The listener is the one origin given at start besides the sandbox's own ports.
  sb = await startSandbox({ dataDir, tinybird: { importFrom: [`http://127.0.0.1:${listener.port}`], jobStepMs: 20, queriesPerSecond: 10_000, importsPerMinute: 1000 } });
  port = Number(new URL(sb.urls.tinybird).port);
  adminPort = Number(new URL(sb.admin.workflow).port);
}, 60_000);

afterAll(async () => {
  await sb?.close();
  await new Promise((resolve) => listener?.server.close(resolve));
  await new Promise((resolve) => foreign?.server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** A raw HTTP request with any Host and headers (fetch does not let Host be set). */
/** A raw request to the sandbox port, or to the admin port for the workflow admin routes (served there only). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const to = path.startsWith('/workflow/_sandbox') ? adminPort : port;
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string; json: Record<string, unknown> | undefined }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: to, method, path, headers: { host: `127.0.0.1:${to}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const isServiceError = (json: unknown) =>
  typeof json === 'object' && json !== null && typeof (json as { error?: unknown }).error === 'string' && typeof (json as { documentation?: unknown }).documentation === 'string';

describe('item 1: SQL that reaches files, URLs, processes or settings', () => {
  const F = `'${CANARY}', 'LineAsString'`;
  const U = `'http://127.0.0.1:PORT/url-read', 'LineAsString'`;
  const queries: [string, string, string?][] = [
    ['file()', `SELECT * FROM file(${F})`],
    ['file/**/()', `SELECT * FROM file/**/(${F})`],
    ['`file`()', `SELECT * FROM \`file\`(${F})`],
    ['FILE()', `SELECT * FROM FILE(${F})`],
    ['newline before (', `SELECT * FROM file\n(${F})`],
    ['-- comment and newline before (', `SELECT * FROM file -- x\n(${F})`],
    ['tab before (', `SELECT * FROM file\t(${F})`],
    ['url/**/()', `SELECT * FROM url/**/(${U})`],
    ['`url`()', `SELECT * FROM \`url\`(${U})`],
    ['s3()', `SELECT * FROM s3/**/('http://127.0.0.1:PORT/s3-read/x.csv', 'CSV')`],
    ['filesystem()', `SELECT * FROM filesystem('${outside}')`],
    ['executable()', `SELECT * FROM executable/**/('touch ${out('executable')}', 'TSV', 'x String')`],
    ['remote()', `SELECT * FROM remote/**/('127.0.0.1:9000', system.one)`],
    ['CTE over file', `WITH x AS (SELECT * FROM file/**/(${F})) SELECT * FROM x`],
    ['subquery in FROM', `SELECT * FROM (SELECT * FROM \`file\`(${F}))`],
    ['subquery in WHERE IN', `SELECT 1 WHERE '${SECRET}' IN (SELECT * FROM file/**/(${F}))`],
    ['JOIN over file', `SELECT * FROM numbers(1) AS n JOIN (SELECT * FROM file/**/(${F})) AS f ON 1 = 1`],
    ['UNION ALL', `SELECT 'a' AS line UNION ALL SELECT * FROM file/**/(${F})`],
    ['view() over file', `SELECT * FROM view(SELECT * FROM file/**/(${F}))`],
    ['scalar file()', `SELECT file/**/('${CANARY}')`],
    ['scalar `file`() in WHERE', `SELECT 1 WHERE \`file\`('${CANARY}') LIKE '%canary%'`],
    ['scalar catboostEvaluate() over a path', `SELECT catboostEvaluate('${CANARY}', 1)`],
    ['DESCRIBE file()', `DESCRIBE TABLE file/**/(${F})`],
    ['% template over file', `% SELECT * FROM file/**/(${F})`],
    ['subquery SETTINGS readonly=0', `SELECT * FROM (SELECT * FROM file/**/(${F}) SETTINGS readonly = 0)`],
    ['subquery SETTINGS readonly=0 without file', 'SELECT * FROM (SELECT * FROM numbers(1) SETTINGS readonly = 0)'],
    ['top-level SETTINGS readonly=0', 'SELECT 1 SETTINGS readonly = 0'],
    ['INTO OUTFILE', `SELECT 1 INTO OUTFILE '${out('plain')}'`, out('plain')],
    ['INTO OUTFILE APPEND', `SELECT 1 INTO OUTFILE '${out('append')}' APPEND`, out('append')],
    ['INTO OUTFILE COMPRESSION', `SELECT 1 INTO OUTFILE '${out('gz')}' COMPRESSION 'gzip'`, out('gz')],
    ['UNION INTO OUTFILE', `SELECT 1 UNION ALL SELECT 2 INTO OUTFILE '${out('union')}'`, out('union')],
    ['EXPLAIN INTO OUTFILE', `EXPLAIN SELECT 1 INTO OUTFILE '${out('explain')}'`, out('explain')],
    ['SHOW TABLES INTO OUTFILE', `SHOW TABLES INTO OUTFILE '${out('show')}'`, out('show')],
    ['two statements', `SELECT 1; SELECT * FROM file/**/(${F})`],
    ['two statements, the second an OUTFILE', `SELECT 1; SELECT 2 INTO OUTFILE '${out('second')}'`, out('second')],
    ['INSERT', "INSERT INTO events (event) VALUES ('x')"],
    ['INSERT INTO FUNCTION file', `INSERT INTO FUNCTION file('${out('insert')}', 'CSV') SELECT 1`, out('insert')],
  ];

  it.each(queries)('%s', async (_, template, target) => {
    const q = template.replaceAll('PORT', String(listener.port));
    const res = await call(`${sb.urls.tinybird}/v0/sql?q=${encodeURIComponent(q)}`, { token: sb.credentials.tinybird.readToken });
    const refused = res.status === 403 || (res.status === 400 && /syntax|only select/i.test(String(res.json?.error)));
    const ok = refused && isServiceError(res.json) && !res.text.includes(SECRET) && (target === undefined || !existsSync(target));
    expect(family.record(ok), `${res.status} ${res.text}`).toBe(true);
  });

  it('refuses the same through a pipe q, a POST body and a delete_condition', async () => {
    const token = sb.credentials.tinybird.adminToken;
    const viaPipe = await call(`${sb.urls.tinybird}/v0/pipes/top_events.json?q=${encodeURIComponent(`SELECT * FROM file/**/(${F})`)}`, { token });
    const viaBody = await call(`${sb.urls.tinybird}/v0/sql`, { method: 'POST', token, body: `SELECT * FROM \`file\`(${F})` });
    const conditions = [
      `'${SECRET}' IN (SELECT * FROM file/**/(${F}))`,
      `file/**/('${CANARY}') != ''`,
      `1) UNION ALL SELECT count() FROM file/**/(${F}) --`,
      `1) INTO OUTFILE '${out('delete')}' --`,
      `1); SELECT 1 INTO OUTFILE '${out('delete2')}'; SELECT (1`,
      `1) SETTINGS readonly = 0 --`,
      '1) GROUP BY (1',
    ];
    const deletes = await Promise.all(
      conditions.flatMap((delete_condition) =>
        ['true', 'false'].map((dry_run) =>
          call(`${sb.urls.tinybird}/v0/datasources/events/delete`, { method: 'POST', token, body: new URLSearchParams({ delete_condition, dry_run }) }),
        ),
      ),
    );
    const replies = [viaPipe, viaBody, ...deletes];
    for (const res of replies) {
      const ok = (res.status === 403 || res.status === 400) && typeof res.json?.error === 'string' && !res.text.includes(SECRET) && res.json.job === undefined;
      expect(family.record(ok), `${res.status} ${res.text}`).toBe(true);
    }
    expect([viaPipe.status, viaBody.status]).toEqual([403, 403]);
    expect(existsSync(out('delete')) || existsSync(out('delete2'))).toBe(false);
    // No url()/s3() read reached the listener.
    expect(listener.hits.filter((hit) => hit.includes('read'))).toEqual([]);
    family.note(`SQL: ${queries.length} spellings on the Query API, 2 through a pipe q and a POST body, and ${conditions.length} delete_conditions (dry run and job) refused; no canary read, no OUTFILE written`);
  });
});

describe('item 2: DNS rebinding and cross-site requests', () => {
  const sql = () => `/tinybird/v0/sql?q=SELECT+1&token=${sb.credentials.tinybird.readToken}`;
  const json = { 'content-type': 'application/json' };
  const workflow = (id: string) => JSON.stringify({ id, name: id, workspaceId: 'ws_sandbox', blocks: {} });

  it('refuses every Host that is not a loopback name with the sandbox port, on every service and admin route', async () => {
    const hosts = [
      `attacker.example:${port}`,
      `localhost.attacker.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `0.0.0.0:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
      `127.1:${port}`,
      `localhost.:${port}`,
    ];
    const paths = () => [
      ['GET', sql()],
      ['POST', '/loops/api/v1/events/send'],
      ['GET', '/workflow/api/workflows'],
      ['GET', '/loops/_sandbox/outbox'],
      ['GET', '/workflow/_sandbox/workflows'],
      ['PUT', '/workflow/_sandbox/workflows/wf_rebound'],
    ];
    let refused = 0;
    for (const host of hosts) {
      for (const [method, path] of paths()) {
        const res = await raw(method!, path!, { host, ...json }, method === 'GET' ? undefined : workflow('wf_rebound'));
        const ok = res.status === 403 && typeof res.json?.error === 'string' && res.headers['access-control-allow-origin'] === undefined;
        if (ok) refused++;
        expect(family.record(ok), `${host} ${method} ${path}: ${res.status} ${res.text}`).toBe(true);
      }
    }
    const listed = await raw('GET', '/workflow/_sandbox/workflows');
    expect(listed.text).not.toContain('wf_rebound');
    // The loopback names themselves, in any case, still work.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const res = await raw('GET', sql(), { host });
      expect(family.record(res.status === 200), `${host}: ${res.status} ${res.text}`).toBe(true);
    }
    family.note(`Host: ${hosts.length} foreign Host values refused on ${paths().length} routes each (${refused} requests), the 4 loopback spellings answered`);
  });

  it('refuses foreign Origins everywhere, other loopback pages on admin routes, and non-JSON admin writes', async () => {
    const other = `http://127.0.0.1:${port + 1}`;
    const cases: [string, string, Record<string, string>, string | undefined, number][] = [
      ['foreign Origin on the Query API', sql(), { origin: 'https://attacker.example' }, undefined, 403],
      ['Origin null on the Query API', sql(), { origin: 'null' }, undefined, 403],
      ['https loopback Origin', sql(), { origin: `https://127.0.0.1:${port}` }, undefined, 403],
      ['look-alike Origin', sql(), { origin: `http://127.0.0.1.attacker.example:${port}` }, undefined, 403],
      ['another loopback page on the Query API', sql(), { origin: other }, undefined, 200],
      ['another loopback page on an admin route', '/workflow/_sandbox/workflows', { origin: other }, undefined, 403],
      ['foreign Origin on an admin write', '/workflow/_sandbox/workflows/wf_cross', { origin: 'https://attacker.example', ...json }, workflow('wf_cross'), 403],
      ['text/plain admin write', '/workflow/_sandbox/workflows/wf_cross', { 'content-type': 'text/plain' }, workflow('wf_cross'), 403],
      ['form admin write', '/workflow/_sandbox/workflows/wf_cross', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1', 403],
      ['body without a content type', '/workflow/_sandbox/workflows/wf_cross', {}, workflow('wf_cross'), 403],
      ['multipart admin run', '/workflow/_sandbox/workflows/wf_daily_report/run', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--', 403],
      ['text/plain notifications', '/workflow/_sandbox/workspaces/ws_sandbox/notifications', { 'content-type': 'text/plain' }, '{"channels":[],"allWorkflows":true}', 403],
      ['the admin port own Origin on an admin write', '/workflow/_sandbox/workflows/wf_own', { origin: `http://127.0.0.1:${adminPort}`, ...json }, workflow('wf_own'), 200],
    ];
    for (const [name, path, headers, body, want] of cases) {
      const res = await raw(body === undefined ? 'GET' : name.includes('run') ? 'POST' : 'PUT', path, headers, body);
      const ok = res.status === want && (want === 200 || typeof res.json?.error === 'string');
      expect(family.record(ok), `${name}: ${res.status} ${res.text}`).toBe(true);
    }
    const listed = (await raw('GET', '/workflow/_sandbox/workflows')).text;
    expect([listed.includes('wf_cross'), listed.includes('wf_own')]).toEqual([false, true]);
    family.note(`Origin: ${cases.filter((c) => c[4] === 403).length} cross-site requests (foreign or null Origin, another loopback page on /_sandbox, non-JSON admin writes) refused`);
  });
});

describe('item 3: ids and redirects that lead outside', () => {
  const settings = JSON.stringify({ channels: [{ type: 'webhook', url: `http://127.0.0.1:${9}/hook` }], allWorkflows: true });
  const ids = [
    '%2F..%2F..%2Fescaped',
    '..%2Fescaped-up',
    '%2E%2E%2Fdots-encoded',
    '%2Ftmp%2Fabsolute',
    '..%5C..%5Cbackslash',
    'a%2Fb',
    '%252F..%252Fdouble',
    '__proto__',
    'constructor',
    '%00nul',
  ];

  it('keeps every notification file of a hostile workspace id inside dataDir', async () => {
    for (const [i, id] of ids.entries()) {
      const json = { 'content-type': 'application/json' };
      const res = await raw('PUT', `/workflow/_sandbox/workspaces/${id}/notifications`, json, settings);
      // A finished execution in that workspace makes its notifier save its state file.
      const workflow = JSON.stringify({ name: 'paths', workspaceId: decodeURIComponent(id), blocks: {} });
      expect((await raw('PUT', `/workflow/_sandbox/workflows/wf_path_${i}`, json, workflow)).status).toBe(200);
      const run = await raw('POST', `/workflow/_sandbox/workflows/wf_path_${i}/run`, json, '{}');
      const deliveries = await raw('GET', `/workflow/_sandbox/workspaces/${id}/deliveries`);
      const removed = await raw('DELETE', `/workflow/_sandbox/workspaces/${id}/notifications`);
      // The id is an ordinary workspace: configured, run, its deliveries read back, removed.
      const ok =
        [res.status, run.status, deliveries.status, removed.status].every((status) => status === 200) &&
        (deliveries.json?.deliveries as { deliveries: unknown[] }).deliveries.length === 1 &&
        readdirSync(root).sort().join() === 'data,outside';
      expect(family.record(ok), `${id}: ${res.status} ${run.status} ${deliveries.text} ${readdirSync(root).join()}`).toBe(true);
    }
    expect(readdirSync(outside)).toEqual(['canary.txt']);
    expect(existsSync('/tmp/absolute.json') || existsSync(join(tmpdir(), 'absolute.json'))).toBe(false);
    family.note(`Paths: ${ids.length} hostile workspace ids (encoded ../, absolute, backslash, double-encoded, __proto__, NUL) kept their files inside dataDir`);
  });

  it('checks every redirect of a Data Source import against the loopback allow-list', async () => {
    const token = sb.credentials.tinybird.adminToken;
    const base = `http://127.0.0.1:${listener.port}`;
    const importFrom = async (url: string) => {
      const res = await call(`${sb.urls.tinybird}/v0/datasources?mode=append&name=events&format=csv`, { method: 'POST', token, body: new URLSearchParams({ url }) });
      if (res.status !== 200) return { status: res.status, error: String(res.json?.error) };
      const job = await eventually(async () => {
        const polled = await call(`${sb.urls.tinybird}/v0/jobs/${res.json.id as string}`, { token });
        return polled.json.status === 'done' || polled.json.status === 'error' ? polled.json : undefined;
      });
      return { status: job.status as string, error: String(job.error ?? '') };
    };
    const refusedDirect = await importFrom(`http://[::ffff:127.0.0.1]:${listener.port}/secret.csv`);
    const viaMapped = await importFrom(`${base}/to-mapped`);
    const viaMetadata = await importFrom(`${base}/to-metadata`);
    const endless = await importFrom(`${base}/loop`);
    const allowed = await importFrom(`${base}/to-loopback`);
    for (const [result, want] of [
      [refusedDirect, 400],
      [viaMapped, 'error'],
      [viaMetadata, 'error'],
      [endless, 'error'],
    ] as const) {
      expect(family.record(result.status === want), JSON.stringify(result)).toBe(true);
    }
    expect(viaMapped.error).toMatch(/Redirected to http:\/\/\[::ffff:7f00:1\].*loopback/);
    expect(allowed.status).toBe('done');
    expect(listener.hits).not.toContain('/secret.csv');
    const leaked = await call(`${sb.urls.tinybird}/v0/sql?q=${encodeURIComponent("SELECT count() AS n FROM events WHERE event = 'leaked'")}`, { token });
    expect(leaked.json.data).toEqual([{ n: 0 }]);
    family.note('Redirects: an import through a 302 to [::ffff:127.0.0.1] or a metadata address, or an endless redirect, ends in a job error without the target being fetched');
  });

  /** Submits an import of `url` and waits for its job: the 400 refusal, or the job's end. */
  async function importJob(url: string, format = 'csv', via: 'form' | 'query' = 'form') {
    const token = sb.credentials.tinybird.adminToken;
    const path = `${sb.urls.tinybird}/v0/datasources?mode=append&name=events&format=${format}${via === 'query' ? `&url=${encodeURIComponent(url)}` : ''}`;
    const res = await call(path, { method: 'POST', token, ...(via === 'form' ? { body: new URLSearchParams({ url }) } : {}) });
    if (res.status !== 200) return { status: res.status, error: String(res.json?.error), job: undefined };
    const job = await eventually(async () => {
      const polled = await call(`${sb.urls.tinybird}/v0/jobs/${res.json.id as string}`, { token });
      return polled.json.status === 'done' || polled.json.status === 'error' ? polled.json : undefined;
    }, 20_000);
    return { status: job.status as string, error: String(job.error ?? ''), job };
  }

  it('item 4: imports only from its own ports and the origins given at start; a foreign local service is never fetched', async () => {
    const token = sb.credentials.tinybird.adminToken;
    const refusals = [];
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      for (const via of ['form', 'query'] as const) refusals.push(await importJob(`http://${host}:${foreign.port}/etc/passwd`, 'ndjson', via));
    }
    for (const result of refusals) {
      expect(family.record(result.status === 400 && result.error === 'The sandbox only imports from its own ports and the origins given at start (tinybird.importFrom)'), JSON.stringify(result)).toBe(true);
    }
    // An allowed origin that redirects to the foreign port: checked at the hop, not fetched.
    const bounced = await importJob(`http://127.0.0.1:${listener.port}/to-foreign`);
    expect(family.record(bounced.status === 'error' && bounced.error.includes('only imports from its own ports')), JSON.stringify(bounced)).toBe(true);
    expect(foreign.hits).toEqual([]);
    // Its own port is allowed: the Query API's CSV of a row, read back into the Data Source.
    const own = `${sb.urls.tinybird}/v0/sql?token=${token}&q=${encodeURIComponent("SELECT toDateTime('2026-11-22 10:00:00') AS timestamp, 'own-port' AS event, 'o1' AS user_id FORMAT CSVWithNames")}`;
    const fromOwn = await importJob(own);
    expect(fromOwn.status, JSON.stringify(fromOwn)).toBe('done');
    family.note(`Imports: a foreign local service refused on 3 loopback names × 2 ways to pass url (${refusals.length} requests, 0 fetched), and through a redirect from an allowed origin; the sandbox's own port imports`);
  });

  it('item 4: lines that are not JSON objects are counted as invalid_lines, never kept in the quarantine', async () => {
    const token = sb.credentials.tinybird.adminToken;
    const mixed = await importJob(`http://127.0.0.1:${listener.port}/mixed.ndjson`, 'ndjson');
    expect(mixed.job).toMatchObject({ status: 'done', invalid_lines: 2, statistics: { row_count: 1 } });
    const quarantine = await call(`${sb.urls.tinybird}/v0/sql?q=${encodeURIComponent('SELECT * FROM events_quarantine FORMAT JSON')}`, { token });
    const kept = quarantine.text.includes('hunter2') || quarantine.text.includes('root:x:0:0');
    expect(family.record(mixed.job?.invalid_lines === 2 && !kept), quarantine.text.slice(0, 300)).toBe(true);
  });

  it('item 5: a download and a gzip are capped (100 MiB by default): a bomb or an endless body ends in a job error', async () => {
    const before = process.memoryUsage().rss;
    const bomb = await importJob(`http://127.0.0.1:${listener.port}/bomb.csv.gz`);
    const bombRss = process.memoryUsage().rss - before;
    const declared = await importJob(`http://127.0.0.1:${listener.port}/declared-huge.csv`);
    const endless = await importJob(`http://127.0.0.1:${listener.port}/endless.csv`);
    const cases = [
      [bomb, 'File too large: decompressed, the file is more than 104857600 bytes, the import limit'],
      [declared, 'File too large: the download is more than 104857600 bytes, the import limit'],
      [endless, 'File too large: the download is more than 104857600 bytes, the import limit'],
    ] as const;
    for (const [result, error] of cases) expect(family.record(result.status === 'error' && result.error === error), JSON.stringify(result)).toBe(true);
    // The endless body stopped near the cap, not at the 512 MiB the listener would have sent.
    expect(streamed).toBeLessThan(256 * 1024 * 1024);
    expect(bombRss).toBeLessThan(600 * 1024 * 1024);
    family.note(`Imports: a ${(BOMB.length / 1024 / 1024).toFixed(1)} MB gzip of 1 GiB, a 200 MiB Content-Length and an endless chunked body each end in a job error at the 100 MiB cap; rss grew ${Math.round(bombRss / 1024 / 1024)} MB for the bomb, the endless body was cut after ${Math.round(streamed / 1024 / 1024)} MiB written`);
  }, 60_000);
});
