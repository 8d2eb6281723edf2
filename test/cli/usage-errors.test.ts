import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const PORT_ERROR = /takes a port number from 0 to 65535 \(0 picks a free one\), got "99999"/;

/** Every command's usage errors: exit 2, and a message that names what is wrong. */
describe('usage errors across commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-usage-'));
  const ndjson = join(dir, 'rows.ndjson');
  writeFileSync(ndjson, '{"a":1}\n');
  const cases: [string[], RegExp][] = [
    [['frobnicate'], /unknown command frobnicate/],
    [['list', '--bogus'], /bogus/],
    [['schema'], /schema needs a tool id/],
    [['schema', 'nope_tool'], /no tool with id nope_tool \(see flowblocks list\)/],
    [['manifest', 'nope'], /no block nope \(see flowblocks blocks\)/],
    [['run'], /run needs a tool id/],
    [['run', 'nope_tool'], /no tool with id nope_tool \(see flowblocks list\)/],
    [['run', 'tinybird_query', '--timeout', '0'], /--timeout takes a positive number/],
    [['run', 'tinybird_query', '--endpoint', 'lops=http://127.0.0.1:9'], /--endpoint lops: no service named "lops"/],
    [['run', 'loops_find_contact', '--endpoint', 'loops=notaurl'], /--endpoint loops: not an http\(s\) URL/],
    [['run', 'loops_find_contact', '--redis', 'http://127.0.0.1:6379'], /^--redis takes a redis:\/\/ or rediss:\/\/ URL/],
    [['ingest'], /missing <file>, --datasource/],
    [['ingest', '--bogus'], /bogus/],
    [['ingest', dir, '--datasource', 'events', '--token', 't'], /cannot read .*: it is a directory; give an NDJSON file or - for stdin/],
    [['ingest', join(dir, 'missing.ndjson'), '--datasource', 'events', '--token', 't'], /cannot read .*missing\.ndjson: no such file/],
    [['ingest', ndjson, '--datasource', 'bad-name', '--token', 't'], /^--datasource bad-name: a Data Source name has letters/],
    [['ingest', ndjson, '--datasource', 'events', '--token', 't', '--concurrency', '0'], /--concurrency takes a number from 1/],
    [['ingest', ndjson, '--datasource', 'events', '--token', 't', '--from-row', '0'], /--from-row takes a row number from 1/],
    [['mcp', '--services', 'nope'], /unknown service nope/],
    [['mcp', '--max-rows', '0'], /--max-rows takes a whole number/],
    [['mcp', '--max-result-bytes', '0'], /--max-result-bytes takes a whole number/],
    [['mcp', '--redis', 'not a url'], /^--redis takes a redis:\/\/ or rediss:\/\/ URL/],
    [['monitor', '--bogus'], /bogus/],
    [['preview', '--port', '99999'], PORT_ERROR],
    [['preview', '--sandbox-port', '99999'], PORT_ERROR],
    [['preview', '--endpoint', 'foo=http://127.0.0.1:9', '--no-sandbox'], /no service named "foo"/],
    [['sandbox', '--port', '99999'], PORT_ERROR],
    [['sandbox', '--tinybird-port', '99999'], PORT_ERROR],
    [['sandbox', '--no-service-ports', '--loops-port', '1'], /--loops-port and --no-service-ports do not go together/],
    [['sandbox', '--fault', 'tinybird:429=2'], /429 is a probability from 0 to 1/],
    [['sandbox', '--fault', 'tinybird:latency=-5'], /latency is a number of ms from 0/],
    [['sandbox', '--import-from', 'http://10.0.0.5:8000'], /tinybird.importFrom: "http:\/\/10.0.0.5:8000" is not an http\(s\) origin on 127.0.0.1, localhost or \[::1\]/],
    [['sandbox', 'outbox', '--bogus'], /bogus/],
  ];
  for (const [args, message] of cases) {
    it(`flowblocks ${args.map((a) => a.replace(dir, '<dir>')).join(' ')}`, async () => {
      const out = await cli(args);
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(message);
    });
  }

  it('the help lists every command, sandbox outbox among them, under a heading, before the exit codes', async () => {
    const help = (await cli(['--help'])).stdout;
    expect(help).toMatch(/Commands loaded on use[^\n]*\n( {2}flowblocks \S+.*\n)+/);
    expect(help).toMatch(/flowblocks sandbox outbox +print the e-mails/);
    expect(help.indexOf('Exit codes')).toBeGreaterThan(help.indexOf('flowblocks sandbox outbox'));
    for (const command of ['ingest', 'mcp', 'monitor', 'preview', 'sandbox']) {
      const own = await cli([command, '--help']);
      expect(own.code).toBe(0);
      expect(own.stdout).toMatch(/Exit codes: 0 /);
    }
  });
});
