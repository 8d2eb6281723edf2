/**
 * `flowblocks <command> --help` prints that command's own help and exits 0, for the commands
 * `main` runs itself as for those loaded on use, `sandbox outbox` included (#42).
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

describe('each command prints its own help', () => {
  const own: [string[], RegExp][] = [
    [['list', '--help'], /^Usage: flowblocks list\n/],
    [['blocks', '--help'], /^Usage: flowblocks blocks\n/],
    [['schema', '--help'], /^Usage: flowblocks schema <tool> \[--llm\]\n[\s\S]*--llm/],
    [['manifest', '-h'], /^Usage: flowblocks manifest <block>\n/],
    [['run', '--help'], /^Usage: flowblocks run <tool> \[options\]\n[\s\S]*--params-file[\s\S]*TINYBIRD_TOKEN, TINYBIRD_BASE_URL/],
    [['run', 'tinybird_query', '--help'], /^Usage: flowblocks run <tool> \[options\]\n/],
    [['help', 'run'], /^Usage: flowblocks run <tool> \[options\]\n/],
    [['sandbox', 'outbox', '--help'], /^Usage: flowblocks sandbox outbox \[--url <origin>\]\n/],
  ];
  for (const [args, help] of own) {
    it(`flowblocks ${args.join(' ')}`, async () => {
      const out = await cli(args);
      expect(out).toMatchObject({ code: 0, stderr: '' });
      expect(out.stdout).toMatch(help);
      expect(out.stdout).toMatch(/Exit codes: 0 /);
      // Not the whole help: no list of the other commands.
      expect(out.stdout).not.toContain('Commands loaded on use');
    });
  }

  it('the whole help still lists every command and the options of run', async () => {
    const out = await cli(['--help']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Commands loaded on use');
    expect(out.stdout).toContain('Options of run:');
    expect(out.stdout).toContain('LOOPS_API_KEY');
  });
});
