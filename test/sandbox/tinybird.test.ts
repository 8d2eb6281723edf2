import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { call, eventually, fileServer } from './helpers.js';

let sb: Sandbox;
let base: string;
let admin: string;
let read: string;
let append: string;
/** What the file server serves, set by each test; the server starts first, so its origin is given at start. */
const served: Record<string, string | Buffer> = {};
let files: Awaited<ReturnType<typeof fileServer>>;

beforeAll(async () => {
  files = await fileServer(served);
  const importFrom = [new URL(files.url('')).origin];
  sb = await startSandbox({ tinybird: { importFrom, jobStepMs: 40, eventsPerSecond: 60, queriesPerSecond: 1000, maxEventsBytes: 256 * 1024 } });
  base = sb.urls.tinybird;
  ({ adminToken: admin, readToken: read, appendToken: append } = sb.credentials.tinybird);
});
afterAll(async () => {
  await sb?.close();
  await files?.close();
});

const ndjson = (...rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n');
const ev = (event: string, user: string, extra: object = {}) => ({ timestamp: '2026-11-22 10:00:00', event, user_id: user, ...extra });
const sendEvents = (name: string, body: string | Buffer, token = admin, query = '', headers: Record<string, string> = {}) =>
  call(`${base}/v0/events?name=${name}${query}`, { method: 'POST', body, token, headers });
const sql = (q: string, token = admin) => call(`${base}/v0/sql?q=${encodeURIComponent(q)}`, { token });

describe('events API', () => {
  it('answers 202 without wait and 200 with wait, with the row counts and rate-limit headers', async () => {
    const first = await sendEvents('events', ndjson(ev('signup', 'u1'), ev('login', 'u1')));
    expect(first.status).toBe(202);
    expect(first.json).toEqual({ successful_rows: 2, quarantined_rows: 0 });
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    const second = await sendEvents('events', ndjson(ev('signup', 'u2')), admin, '&wait=TRUE');
    expect(second.status).toBe(200);
  });

  it('quarantines rows that do not fit the schema and keeps them with the error', async () => {
    const res = await sendEvents('events', ndjson(ev('signup', 'u3'), { timestamp: 'yesterday', event: 'bad', user_id: 'u4' }, { event: 'no-user' }), admin, '&wait=true');
    expect(res.json).toEqual({ successful_rows: 1, quarantined_rows: 2 });
    const q = await sql("SELECT c__error_column, c__error, event FROM events_quarantine WHERE event = 'bad' FORMAT JSON");
    expect(q.status).toBe(200);
    expect(q.json.data).toEqual([{ c__error_column: ['timestamp'], c__error: ["column 'timestamp': 'yesterday' is not a DateTime"], event: 'bad' }]);
  });

  it('reads gzip by header and by magic bytes, and a single JSON object', async () => {
    const body = gzipSync(ndjson(ev('gz', 'g1'), ev('gz', 'g2')));
    expect((await sendEvents('events', body, admin, '', { 'content-encoding': 'gzip' })).json).toEqual({ successful_rows: 2, quarantined_rows: 0 });
    expect((await sendEvents('events', body)).json).toEqual({ successful_rows: 2, quarantined_rows: 0 });
    expect((await sendEvents('events', JSON.stringify(ev('json', 'j1')), admin, '&format=json')).json).toEqual({ successful_rows: 1, quarantined_rows: 0 });
  });

  it('answers its errors as plain text', async () => {
    const noName = await call(`${base}/v0/events`, { method: 'POST', body: '{}', token: admin });
    expect(noName.status).toBe(400);
    expect(noName.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(noName.text).toBe("Missing 'name' parameter\n");
    const badToken = await sendEvents('events', ndjson(ev('x', 'y')), 'p.nope');
    expect([badToken.status, badToken.text]).toEqual([403, 'Invalid token\n']);
    const tooBig = await sendEvents('events', ndjson(...Array.from({ length: 3000 }, (_, i) => ev('big', `user-${i}`, { email: 'x'.repeat(60) }))));
    expect([tooBig.status, tooBig.headers.get('content-type')]).toEqual([413, 'text/plain; charset=utf-8']);
  });

  it('creates a missing Data Source from the events with a token that may create, not with an append token', async () => {
    const denied = await sendEvents('page_views', ndjson({ path: '/', ms: 12 }), append);
    expect([denied.status, denied.text]).toEqual([403, 'Invalid token for DS autocreation\n']);
    const created = await sendEvents('page_views', ndjson({ path: '/', ms: 12, at: '2026-11-22 10:00:00', ratio: 0.5, ref: null }), admin, '&wait=true');
    expect(created.json).toEqual({ successful_rows: 1, quarantined_rows: 0 });
    const meta = await sql('SELECT * FROM page_views FORMAT JSON');
    expect(meta.json.meta).toEqual([
      { name: 'path', type: 'String' },
      { name: 'ms', type: 'Int64' },
      { name: 'at', type: 'DateTime' },
      { name: 'ratio', type: 'Float64' },
      { name: 'ref', type: 'Nullable(String)' },
    ]);
  });

  it('lets an append token append to its own Data Source only', async () => {
    expect((await sendEvents('events', ndjson(ev('a', 'a1')), append)).status).toBe(202);
    const other = await sendEvents('page_views', ndjson({ path: '/x', ms: 1, at: '2026-11-22 10:00:00', ratio: 1, ref: null }), append);
    expect([other.status, other.text]).toEqual([403, 'token needs scope DATASOURCES:APPEND:page_views\n']);
  });
});

describe('query API', () => {
  it('serves GET q, form, JSON and text/plain bodies alike, with the FORMAT JSON shape', async () => {
    const q = "SELECT event FROM events WHERE event = 'signup' ORDER BY user_id LIMIT 1";
    const viaGet = await sql(q);
    const viaForm = await call(`${base}/v0/sql`, { method: 'POST', token: admin, body: new URLSearchParams({ q }) });
    const viaJson = await call(`${base}/v0/sql`, { method: 'POST', token: admin, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q }) });
    const viaText = await call(`${base}/v0/sql`, { method: 'POST', token: admin, headers: { 'content-type': 'text/plain' }, body: q });
    for (const res of [viaGet, viaForm, viaJson, viaText]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.json).toMatchObject({ meta: [{ name: 'event', type: 'LowCardinality(String)' }], data: [{ event: 'signup' }], rows: 1 });
      expect(Object.keys(res.json.statistics as object)).toEqual(['elapsed', 'rows_read', 'bytes_read']);
      expect(res.json.rows_before_limit_at_least).toBeGreaterThanOrEqual(1);
    }
  });

  it('picks the output from a trailing FORMAT, case-insensitively, and refuses others with 403', async () => {
    const each = await sql("SELECT 1 AS a, 'x' AS b format jsoneachrow");
    expect([each.headers.get('content-type'), each.text]).toEqual(['application/x-ndjson', '{"a":1,"b":"x"}\n']);
    const csv = await sql("SELECT 1 AS a, 'x' AS b FORMAT CSVWithNames");
    expect(csv.text).toBe('"a","b"\n1,"x"\n');
    const xml = await sql('SELECT 1 FORMAT XML');
    expect(xml.status).toBe(403);
    expect(xml.json.error).toBe('invalid format, available ones: JSON, CSV, CSVWithNames, TSV, TSVWithNames, PrettyCompact, JSONEachRow, Parquet, JSONStrings, Prometheus');
  });

  it('maps ClickHouse failures to the reference statuses', async () => {
    const missingQ = await call(`${base}/v0/sql`, { token: admin });
    expect([missingQ.status, missingQ.json.error]).toEqual([400, 'missing q parameter. example q=select%201']);
    const syntax = await sql('SELECT nope FROM events');
    expect(syntax.status).toBe(400);
    expect(syntax.headers.get('x-db-exception-code')).toBe('47');
    expect(syntax.json.error).toMatch(/Unknown expression identifier `nope`/);
    expect((await sql('SELECT * FROM no_such_table')).status).toBe(403);
    await sendEvents('clean', ndjson({ a: 1 }), admin, '&wait=true');
    const noQuarantine = await sql('SELECT * FROM clean_quarantine');
    expect(noQuarantine.status).toBe(404);
    expect((await sql('DROP TABLE events')).status).toBe(400);
    const local = await sql("SELECT * FROM file('/etc/hostname', 'LineAsString')");
    expect([local.status, local.json.error]).toEqual([403, "[Error] The 'file' table function is not allowed"]);
  });

  it('renders % templates with the request parameters and checks their types', async () => {
    const ok = await call(`${base}/v0/sql?q=${encodeURIComponent('% SELECT {{Int32(n, 1)}} + 1 AS v')}&n=41`, { token: admin });
    expect(ok.json.data).toEqual([{ v: 42 }]);
    const bad = await call(`${base}/v0/sql?q=${encodeURIComponent('% SELECT {{Int32(n, 1)}} AS v')}&n=abc`, { token: admin });
    expect([bad.status, bad.json.error]).toEqual([400, "Error validating 'abc' to type Int32"]);
  });
});

describe('pipes', () => {
  it('serves a pipe as JSON with its parameters, q over _, and other extensions', async () => {
    const top = await call(`${base}/v0/pipes/top_events.json?limit=1`, { token: read });
    expect(top.status).toBe(200);
    expect(top.json).toMatchObject({ rows: 1, meta: [{ name: 'event' }, { name: 'total' }, { name: 'users' }] });
    const one = await call(`${base}/v0/pipes/top_events.json?event=signup`, { token: read });
    expect(one.json.data).toEqual([{ event: 'signup', total: 3, users: 3 }]);
    const q = await call(`${base}/v0/pipes/top_events.json?q=${encodeURIComponent('SELECT sum(total) AS n FROM _')}&event=signup`, { token: read });
    expect(q.json.data).toEqual([{ n: 3 }]);
    const csv = await call(`${base}/v0/pipes/top_events.csv?event=signup`, { token: read });
    expect(csv.text).toBe('"event","total","users"\n"signup",3,3\n');
    const viaSql = await call(`${base}/v0/sql?q=${encodeURIComponent('SELECT count() AS c FROM _')}&pipeline=top_events&event=gz`, { token: read });
    expect(viaSql.json.data).toEqual([{ c: 1 }]);
  });

  it('answers 404 for an unknown pipe, 403 for an unknown pipeline and 400 for a bad parameter', async () => {
    expect((await call(`${base}/v0/pipes/nope.json`, { token: read })).status).toBe(404);
    expect((await call(`${base}/v0/sql?q=${encodeURIComponent('SELECT * FROM _')}&pipeline=nope`, { token: read })).json.error).toBe("Resource 'nope' not found");
    const bad = await call(`${base}/v0/pipes/top_events.json?limit=ten`, { token: read });
    expect([bad.status, bad.json.error]).toEqual([400, "Error validating 'ten' to type Int32"]);
  });
});

describe('scopes', () => {
  it('answers a missing scope with 403 and the JSON error body, and a bad token with 403 too', async () => {
    const res = await call(`${base}/v0/datasources/events/truncate`, { method: 'POST', token: read });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: 'token needs scope DATASOURCES:CREATE' });
    expect((await sql('SELECT 1', append)).json).toMatchObject({ error: 'token needs scope PIPES:READ' });
    expect((await call(`${base}/v0/sql?q=SELECT+1&token=${read}`)).status).toBe(200);
    expect((await sql('SELECT 1', 'p.wrong')).status).toBe(403);
    const job = await call(`${base}/v0/jobs/any`, { token: read });
    expect([job.status, job.json.error]).toEqual([403, "The token you have provided doesn't have access to this resource"]);
  });
});

describe('data sources and jobs', () => {
  it('counts on a dry run, then runs a delete job through waiting and working to done', async () => {
    await sendEvents('events', ndjson(ev('doomed', 'd1'), ev('doomed', 'd2')), admin, '&wait=true');
    const form = (dry: boolean) => new URLSearchParams({ delete_condition: "event = 'doomed'", dry_run: String(dry) });
    const dry = await call(`${base}/v0/datasources/events/delete`, { method: 'POST', token: admin, body: form(true) });
    expect([dry.status, dry.json]).toEqual([200, { rows_to_be_deleted: 2 }]);
    const job = await call(`${base}/v0/datasources/events/delete`, { method: 'POST', token: admin, body: form(false) });
    expect(job.status).toBe(201);
    expect(job.json).toMatchObject({ status: 'waiting', delete_id: job.json.id, job: { kind: 'delete_data', delete_condition: "event = 'doomed'" } });
    const busy = await call(`${base}/v0/datasources/events/delete`, { method: 'POST', token: admin, body: form(false) });
    expect([busy.status, busy.json.error]).toEqual([429, 'You have reached the maximum number of delete jobs (1)']);
    const seen = new Set<string>();
    const done = await eventually(async () => {
      const res = await call(`${base}/v0/jobs/${job.json.id}`, { token: admin });
      seen.add(res.json.status as string);
      return res.json.status === 'done' ? res.json : undefined;
    });
    expect(seen).toContain('working');
    expect(done).toMatchObject({ rows_affected: 2, started_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/) });
    expect((await sql("SELECT count() AS c FROM events WHERE event = 'doomed'")).json.data).toEqual([{ c: 0 }]);
  });

  it('refuses bad delete requests with the reference messages', async () => {
    const post = (name: string, body: Record<string, string>) => call(`${base}/v0/datasources/${name}/delete`, { method: 'POST', token: admin, body: new URLSearchParams(body) });
    expect((await post('events', {})).json.error).toBe("The delete_condition='delete_statement' is mandatory");
    expect((await post('ghost', { delete_condition: '1' })).json.error).toBe('Data Source "ghost" does not exist, can not delete a non existing Data Source');
    expect((await post('events', { delete_condition: 'nope = 1' })).json.error).toMatch(/^Failed to apply delete_condition='nope = 1': /);
  });

  it('cancels a waiting job through cancelling to cancelled, and lists jobs', async () => {
    const job = await call(`${base}/v0/datasources/events/delete`, { method: 'POST', token: admin, body: new URLSearchParams({ delete_condition: '0' }) });
    const cancel = await call(`${base}/v0/jobs/${job.json.id}/cancel`, { method: 'POST', token: admin });
    expect([cancel.status, cancel.json.status]).toEqual([200, 'cancelling']);
    const again = await call(`${base}/v0/jobs/${job.json.id}/cancel`, { method: 'POST', token: admin });
    expect([again.status, again.json.error]).toEqual([400, 'Job is already being cancelled']);
    await eventually(async () => ((await call(`${base}/v0/jobs/${job.json.id}`, { token: admin })).json.status === 'cancelled' ? true : undefined));
    const list = await call(`${base}/v0/jobs`, { token: admin });
    expect((list.json.jobs as { id: string; status: string }[]).find((j) => j.id === job.json.id)?.status).toBe('cancelled');
  });

  it('truncates with 205, no body and no content type', async () => {
    await sendEvents('scratch', ndjson({ a: 1 }), admin, '&wait=true');
    const res = await call(`${base}/v0/datasources/scratch/truncate`, { method: 'POST', token: admin });
    expect([res.status, res.text, res.headers.get('content-type')]).toEqual([205, '', null]);
    expect((await sql('SELECT count() AS c FROM scratch')).json.data).toEqual([{ c: 0 }]);
    expect((await call(`${base}/v0/datasources/ghost/truncate`, { method: 'POST', token: admin })).status).toBe(404);
  });

  it('appends CSV and NDJSON from a URL given at start as import jobs, quarantining bad rows', async () => {
    Object.assign(served, {
      'rows.csv': 'timestamp,event,user_id,email,amount\n2026-11-22 11:00:00,csv,c1,,1.5\nnot-a-date,csv,c2,,\n',
      'rows.ndjson': ndjson(ev('nd', 'n1')),
    });
    const submit = (name: string, format: string) =>
      call(`${base}/v0/datasources?mode=append&name=events&format=${format}`, { method: 'POST', token: admin, body: new URLSearchParams({ url: files.url(name) }) });
    const csv = await submit('rows.csv', 'csv');
    expect(csv.status).toBe(200);
    expect(csv.json).toMatchObject({ status: 'waiting', import_id: csv.json.id, job: { kind: 'import', datasource: { name: 'events' } } });
    const finished = await eventually(async () => {
      const res = await call(`${base}/v0/jobs/${csv.json.id}`, { token: admin });
      return res.json.status === 'done' ? res.json : undefined;
    });
    expect(finished).toMatchObject({ quarantine_rows: 1, statistics: { row_count: 1 } });
    const nd = await submit('rows.ndjson', 'ndjson');
    await eventually(async () => ((await call(`${base}/v0/jobs/${nd.json.id}`, { token: admin })).json.status === 'done' ? true : undefined));
    expect((await sql("SELECT count() AS c FROM events WHERE event IN ('csv', 'nd')")).json.data).toEqual([{ c: 2 }]);
    const missing = await submit('missing.csv', 'csv');
    const failed = await eventually(async () => {
      const res = await call(`${base}/v0/jobs/${missing.json.id}`, { token: admin });
      return res.json.status === 'error' ? res.json : undefined;
    });
    expect(failed.error).toMatch(/HTTP 404/);
    const parquet = Buffer.from(await (await fetch(`${base}/v0/sql?q=${encodeURIComponent("SELECT toDateTime('2026-11-22 12:00:00') AS timestamp, 'pq' AS event, 'p1' AS user_id FORMAT Parquet")}`, { headers: { authorization: `Bearer ${admin}` } })).arrayBuffer());
    expect(parquet.subarray(0, 4).toString()).toBe('PAR1');
    served['rows.parquet'] = parquet;
    const job = await call(`${base}/v0/datasources?mode=append&name=events&format=parquet`, { method: 'POST', token: admin, body: new URLSearchParams({ url: files.url('rows.parquet') }) });
    await eventually(async () => ((await call(`${base}/v0/jobs/${job.json.id}`, { token: admin })).json.status === 'done' ? true : undefined));
    expect((await sql("SELECT user_id FROM events WHERE event = 'pq'")).json.data).toEqual([{ user_id: 'p1' }]);
    const remote = await call(`${base}/v0/datasources?mode=append&name=events`, { method: 'POST', token: admin, body: new URLSearchParams({ url: 'https://example.com/x.csv' }) });
    expect(remote.status).toBe(400);
    expect((await call(`${base}/v0/jobs/00000000-0000-0000-0000-000000000000`, { token: admin })).status).toBe(404);
  });
});

describe('faults on demand', () => {
  it('injects 429s, 503s and dropped connections in the service format, then stops', async () => {
    try {
      sb.setFaults({ tinybird: { rate429: 1 } });
      const limited = await sendEvents('events', ndjson(ev('f', 'f1')));
      expect([limited.status, limited.text, limited.headers.get('retry-after')]).toEqual([429, 'Too many requests\n', '1']);
      sb.setFaults({ tinybird: { rate5xx: 1 } });
      expect((await sql('SELECT 1')).status).toBe(503);
      sb.setFaults({ tinybird: { dropRate: 1 } });
      await expect(fetch(`${base}/v0/sql?q=SELECT+1`)).rejects.toThrow();
    } finally {
      sb.setFaults({});
    }
    expect((await sql('SELECT 1')).status).toBe(200);
  });

  it('answers over the events limit with 429, Retry-After and the text body', async () => {
    // No name: each call is refused cheaply, after the limit counted it. 125 calls overflow a 60 limit even across two windows.
    const replies = await Promise.all(Array.from({ length: 125 }, () => call(`${base}/v0/events`, { method: 'POST', body: '{}', token: admin })));
    const limited = replies.find((r) => r.status === 429);
    expect(limited?.text).toBe('Too many requests\n');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
