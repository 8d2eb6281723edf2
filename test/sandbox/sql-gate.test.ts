/**
 * What the SQL gate lets through: ordinary reads over Data Sources and pipes, generated
 * rows, every allowed FORMAT and the output settings, which run on read-only connections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { AstShapeError, parseExplainAst } from '../../src/satellites/sandbox/tinybird/explain-ast.js';
import { call } from './helpers.js';

let sb: Sandbox;
const sql = (q: string, extra = '') => call(`${sb.urls.tinybird}/v0/sql?q=${encodeURIComponent(q)}${extra}`, { token: sb.credentials.tinybird.readToken });

beforeAll(async () => {
  sb = await startSandbox({ tinybird: { queriesPerSecond: 10_000 } });
  const events = ['signup', 'login', 'signup'].map((event, i) => JSON.stringify({ timestamp: '2026-11-22 10:00:00', event, user_id: `u${i}` }));
  await call(`${sb.urls.tinybird}/v0/events?name=events&wait=true`, { method: 'POST', token: sb.credentials.tinybird.adminToken, body: events.join('\n') });
}, 60_000);
afterAll(async () => sb?.close());

describe('the SQL gate lets reads through', () => {
  it.each([
    ['a select over a Data Source', "SELECT count() AS n FROM events WHERE event = 'signup'", [{ n: 2 }]],
    ['a CTE, a JOIN and IN', "WITH s AS (SELECT user_id FROM events WHERE event = 'signup') SELECT count() AS n FROM events AS e JOIN s ON e.user_id = s.user_id WHERE e.event IN ('signup')", [{ n: 2 }]],
    ['UNION ALL', 'SELECT n FROM (SELECT 1 AS n UNION ALL SELECT 2) ORDER BY n', [{ n: 1 }, { n: 2 }]],
    ['a scalar subquery', 'SELECT (SELECT count() FROM events) AS n', [{ n: 3 }]],
    ['numbers()', 'SELECT sum(number) AS n FROM numbers(5)', [{ n: 10 }]],
    ['values() and generate_series()', "SELECT (SELECT count() FROM values('x UInt8', 1, 2, 3)) + (SELECT count() FROM generate_series(1, 2)) AS n", [{ n: 5 }]],
    ['generateRandom()', "SELECT count() AS n FROM (SELECT * FROM generateRandom('a UInt8', 1) LIMIT 4)", [{ n: 4 }]],
    ['the scalar format()', "SELECT format('{}-{}', 'a', 'b') AS s", [{ s: 'a-b' }]],
    ['a string that spells file(…) and SETTINGS', "SELECT 'file(/etc/passwd) INTO OUTFILE SETTINGS readonly=0' AS s", [{ s: 'file(/etc/passwd) INTO OUTFILE SETTINGS readonly=0' }]],
    ['a column named file', 'SELECT 1 AS file', [{ file: 1 }]],
  ])('%s', async (_, q, data) => {
    const res = await sql(q);
    expect([res.status, res.json?.data]).toEqual([200, data]);
  });

  it('answers DESCRIBE, EXISTS, SHOW TABLES and EXPLAIN', async () => {
    expect((await sql('DESCRIBE events')).status).toBe(200);
    expect((await sql('EXISTS events FORMAT JSON')).json.data).toEqual([{ result: 1 }]);
    expect((await sql('SHOW TABLES FORMAT CSV')).text).toContain('"events"');
    expect((await sql('EXPLAIN SELECT 1 FORMAT TSV')).status).toBe(200);
  });

  it('keeps FORMAT, the output settings and pipes working', async () => {
    const csv = await sql('SELECT toInt64(1) AS a FORMAT CSVWithNames');
    expect(csv.text).toBe('"a"\n1\n');
    const quoted = await sql('SELECT toInt64(1) AS a FORMAT JSONEachRow', '&output_format_json_quote_64bit_integers=1');
    expect(quoted.text).toBe('{"a":"1"}\n');
    const plain = await sql('SELECT toInt64(1) AS a FORMAT JSONEachRow', '&output_format_json_quote_64bit_integers=0');
    expect(plain.text).toBe('{"a":1}\n');
    const pipe = await call(`${sb.urls.tinybird}/v0/pipes/top_events.json?event=signup`, { token: sb.credentials.tinybird.readToken });
    expect(pipe.json.data).toEqual([{ event: 'signup', total: 2, users: 2 }]);
  });

  it('refuses writes and SETTINGS with the service JSON shape, and keeps ClickHouse errors as they were', async () => {
    const insert = await sql("INSERT INTO events (event) VALUES ('x')");
    expect([insert.status, insert.json.error]).toEqual([400, '[Error] Only SELECT queries are allowed on the Query API']);
    const settings = await sql('SELECT 1 SETTINGS max_threads = 1');
    expect(settings.status).toBe(403);
    expect(settings.json).toEqual({ error: expect.stringMatching(/SETTINGS|readonly/i), documentation: expect.any(String) });
    const unknown = await sql('SELECT nope FROM events');
    expect([unknown.status, unknown.headers.get('x-db-exception-code')]).toEqual([400, '47']);
  });
});

describe('parseExplainAst', () => {
  it('rebuilds the tree and checks each child count', () => {
    const [root] = parseExplainAst('SelectWithUnionQuery (children 1)\n ExpressionList (children 2)\n  Literal UInt64_1\n  Function file (alias f) (children 1)\n   ExpressionList\n');
    expect(root!.children[0]!.children.map((n) => [n.kind, n.name])).toEqual([
      ['Literal', 'UInt64_1'],
      ['Function', 'file'],
    ]);
    expect(() => parseExplainAst('SelectWithUnionQuery (children 2)\n ExpressionList\n')).toThrow(AstShapeError);
    expect(() => parseExplainAst('SelectWithUnionQuery (children 1)\n   ExpressionList\n')).toThrow(AstShapeError);
    expect(() => parseExplainAst(' ExpressionList\n')).toThrow(AstShapeError);
  });
});
