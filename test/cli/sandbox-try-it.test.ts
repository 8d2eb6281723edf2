/**
 * The sandbox's "Try it" lines put no credential on a command line: one `export` sets the
 * variables `run` reads (each service's connection `env`), and the commands after it carry
 * only the call's own params (#42).
 */
import { describe, expect, it } from 'vitest';
import { sandboxEnv, tryIt } from '../../src/satellites/cli/sandbox-try-it.js';

const sb = {
  urls: { tinybird: 'http://127.0.0.1:4100/tinybird', loops: 'http://127.0.0.1:4100/loops/api/v1', workflow: 'http://127.0.0.1:4100/workflow' },
  serviceUrls: { tinybird: 'http://127.0.0.1:7181', loops: 'http://127.0.0.1:7182/api/v1', workflow: 'http://127.0.0.1:7183' },
  credentials: {
    tinybird: { adminToken: 'p.admin-demo', readToken: 'p.read-demo', appendToken: 'p.append-demo' },
    loops: { apiKey: 'loops-demo-key' },
    workflow: { apiKey: 'wf-demo-key', workspaceId: 'ws_demo', freeApiKey: 'wf-free-key', freeWorkspaceId: 'ws_free' },
  },
} satisfies Parameters<typeof tryIt>[0];

describe('the sandbox banner\'s CLI examples', () => {
  it('sets each service\'s credential and base URL in the variables the CLI reads', () => {
    expect(sandboxEnv(sb)).toEqual({
      TINYBIRD_TOKEN: 'p.admin-demo',
      TINYBIRD_BASE_URL: 'http://127.0.0.1:4100/tinybird',
      LOOPS_API_KEY: 'loops-demo-key',
      LOOPS_BASE_URL: 'http://127.0.0.1:4100/loops/api/v1',
      WORKFLOW_API_KEY: 'wf-demo-key',
      WORKFLOW_BASE_URL: 'http://127.0.0.1:4100/workflow',
    });
  });

  it('exports them once; no command after the export holds a credential', () => {
    const lines = tryIt(sb, 'npx flowblocks').split('\n');
    const exported = lines.find((line) => line.trim().startsWith('export '));
    expect(exported).toContain('TINYBIRD_TOKEN=p.admin-demo');
    const commands = lines.filter((line) => line.includes('npx flowblocks') || line.includes('curl'));
    expect(commands.filter((line) => line.includes(' run '))).toHaveLength(3);
    for (const line of commands) {
      for (const secret of ['p.admin-demo', 'loops-demo-key', 'wf-demo-key']) expect(line).not.toContain(secret);
      expect(line).not.toMatch(/--param (token|apiKey|base_url)=/);
      expect(line).not.toContain('--endpoint');
    }
    expect(tryIt(sb, 'npx flowblocks')).toContain('curl -H "Authorization: Bearer $TINYBIRD_TOKEN" "http://127.0.0.1:7181/v0/sql');
  });
});
