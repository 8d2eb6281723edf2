/**
 * The one-liner a desktop agent runs with nothing installed. `npx -y flowblocks` does not
 * install the MCP SDK (an optional peer), so the documented command names it with `-p`; the
 * error without it says that command, and `--print-config` prints it.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NPX_MCP_ARGS } from '../../src/satellites/cli/mcp-desktop-config.js';
import { cli } from './run-cli.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ONE_LINER = 'npx -y -p flowblocks -p @modelcontextprotocol/sdk flowblocks mcp';

describe('flowblocks mcp through npx', () => {
  it('without the SDK exits 1 and names the exact command that brings it', async () => {
    const run = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--import', join(ROOT, 'test/helpers/no-mcp-sdk.mjs'), join(ROOT, 'src/satellites/cli/index.ts'), 'mcp', '--read-only'],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } },
    );
    const failed = await run.then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`start it with ${ONE_LINER}, or npm install @modelcontextprotocol/sdk beside flowblocks`);
  }, 30_000);

  it('--print-config prints the desktop config with that command and the options given', async () => {
    const out = await cli(['mcp', '--print-config', '--read-only', '--services', 'tinybird']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      mcpServers: {
        flowblocks: {
          command: 'npx',
          args: ['-y', '-p', 'flowblocks', '-p', '@modelcontextprotocol/sdk', 'flowblocks', 'mcp', '--read-only', '--services', 'tinybird'],
          env: { TINYBIRD_TOKEN: '<TINYBIRD_TOKEN>', TINYBIRD_BASE_URL: '<TINYBIRD_BASE_URL>' },
        },
      },
    });
    expect(`npx ${NPX_MCP_ARGS.join(' ')}`).toBe(ONE_LINER);
  });

  it('docs/agents.md shows the same command wherever it shows the config', () => {
    const doc = readFileSync(join(ROOT, 'docs/agents.md'), 'utf8');
    const configs = [...doc.matchAll(/```json\n(\{\n {2}"mcpServers"[\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as { mcpServers: Record<string, { command: string; args: string[] }> });
    expect(configs.length).toBeGreaterThan(0);
    for (const config of configs) {
      const server = config.mcpServers.flowblocks!;
      expect(`${server.command} ${server.args.join(' ')}`.startsWith(ONE_LINER)).toBe(true);
    }
    expect(doc).toContain(`\`${ONE_LINER} --read-only\``);
    expect(doc).not.toMatch(/"args": \["-y", "flowblocks"/);
  });
});
