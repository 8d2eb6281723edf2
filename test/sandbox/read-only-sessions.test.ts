/**
 * The engine's own layer under the SQL gate: queries from outside run on readonly=1
 * connections to the sandbox's data directory, which refuse file(), url(), writes and
 * settings changes even for SQL the gate never saw.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clickhouseCode, openSession, type ChdbSession } from '../../src/satellites/sandbox/tinybird/chdb.js';
import { ReadOnlySessions } from '../../src/satellites/sandbox/tinybird/read-only-sessions.js';

const dir = mkdtempSync(join(tmpdir(), 'flowblocks-read-only-'));
const canary = join(dir, 'canary.txt');
let primary: ChdbSession;
let readOnly: ReadOnlySessions;

beforeAll(async () => {
  writeFileSync(canary, 'canary-line\n');
  primary = await openSession(join(dir, 'chdb'));
  await primary.queryAsync('CREATE TABLE t (n Int64) ENGINE = MergeTree ORDER BY n');
  await primary.queryAsync('INSERT INTO t VALUES (1)');
  readOnly = new ReadOnlySessions(primary.path);
});
afterAll(async () => {
  await readOnly?.close();
  primary?.close();
  rmSync(dir, { recursive: true, force: true });
});

const codeOf = (run: Promise<unknown>) => run.then(() => 0, (error: unknown) => clickhouseCode(error));

it('reads the shared tables and refuses writes, settings and table functions that reach out', async () => {
  const session = await readOnly.get();
  expect((await session.queryAsync('SELECT n FROM t', { format: 'JSONEachRow' })).text()).toBe('{"n":1}\n');
  for (const sql of [
    `SELECT * FROM file('${canary}', 'LineAsString')`,
    "SELECT * FROM url('http://127.0.0.1:9/x', 'LineAsString')",
    'INSERT INTO t VALUES (2)',
    'SET readonly = 0',
    'SELECT 1 SETTINGS readonly = 0',
  ]) {
    expect(await codeOf(session.queryAsync(sql)), sql).toBe(164);
  }
});

it('keeps one connection per combination of output settings, set before readonly', async () => {
  const quoted = await readOnly.get({ output_format_json_quote_64bit_integers: '1' });
  const plain = await readOnly.get({ output_format_json_quote_64bit_integers: '0' });
  expect(await readOnly.get({ output_format_json_quote_64bit_integers: '1' })).toBe(quoted);
  expect((await quoted.queryAsync('SELECT n FROM t', { format: 'JSONEachRow' })).text()).toBe('{"n":"1"}\n');
  expect((await plain.queryAsync('SELECT n FROM t', { format: 'JSONEachRow' })).text()).toBe('{"n":1}\n');
  expect(await codeOf(quoted.queryAsync('SET output_format_json_quote_64bit_integers = 0'))).toBe(164);
});
