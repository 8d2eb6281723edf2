import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/satellites/cli/main.js';

const TOKEN = 'p.config-typo-secret';

function configFile(config: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'flowblocks-mcp-config-')), 'mcp.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

async function mcp(args: string[]) {
  const out = { stdout: '', stderr: '' };
  const code = await main(['mcp', ...args], { stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), stdin: async () => '' });
  return { code, ...out };
}

describe('flowblocks mcp --config refuses what it does not know (issue 42)', () => {
  it('a misspelled key: `readonly` would have served every tool, destructive ones included', async () => {
    const file = configFile({ readonly: true, settings: { tinybird: { token: TOKEN } } });
    const result = await mcp(['--config', file, '--print-config']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`the config file ${file}: readonly: unknown key "readonly" (did you mean 'readOnly'?)`);
    expect(result.stderr).not.toContain(TOKEN);
  });

  it('every unknown key, service and setting at once, each named with a did-you-mean; never a value', async () => {
    const file = configFile({ servces: ['tinybird'], services: ['tinybrd'], settings: { tinybird: { tokn: TOKEN }, lops: { apiKey: TOKEN } } });
    const result = await mcp(['--config', file, '--print-config']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `the config file ${file}: ` +
        [
          `servces: unknown key "servces" (did you mean 'services'?)`,
          `services.0: unknown service "tinybrd" (did you mean 'tinybird'?)`,
          `settings.lops: unknown service "lops" (did you mean 'loops'?)`,
          `settings.tinybird.tokn: unknown setting of tinybird "tokn" (did you mean 'token'?)`,
        ].join('; '),
    );
    expect(result.stderr).not.toContain(TOKEN);
  });

  it('a value of the wrong type is refused too (readOnly as a string)', async () => {
    const result = await mcp(['--config', configFile({ readOnly: 'yes' }), '--print-config']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('readOnly in');
    expect(result.stderr).toContain('must be true or false');
  });

  it('--services names the service it does not know with a did-you-mean', async () => {
    const result = await mcp(['--services', 'tinybird,lops']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`unknown service lops (did you mean 'loops'?) (known: tinybird, loops, workflow)`);
  });

  it('a right file still prints its config', async () => {
    const file = configFile({ services: ['tinybird'], readOnly: true, maxItems: 5, maxRows: 10, settings: { tinybird: { token: TOKEN, base_url: 'https://api.tinybird.co' } } });
    const result = await mcp(['--config', file, '--print-config']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('mcpServers');
  });
});
