import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/satellites/cli/main.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { fakeLog } from './logs-api.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const API_KEY = 'sk-cli-monitor-secret';
const SECRET = 'whsec-cli-secret';

async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: async () => '' });
    return { code, stdout, stderr };
  } finally {
    process.env = saved;
  }
}

describe('flowblocks monitor', () => {
  const start = Date.now() - 60_000;
  const logs = [fakeLog(1, start + 1_000, { level: 'error' }), fakeLog(2, start + 2_000)];
  const hooks: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const logRequests: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/api/v1/logs') {
        logRequests.push(url.searchParams);
        const ok = req.headers['x-api-key'] === API_KEY;
        res.statusCode = ok ? 200 : 401;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(ok ? { data: logs.filter((l) => l.startedAt >= (url.searchParams.get('startDate') ?? '')) } : { error: 'bad key' }));
      } else {
        hooks.push({ headers: req.headers, body });
        res.end('ok');
      }
    });
  });
  let base = '';
  let dir = '';
  beforeAll(async () => {
    const serverAddress = await listenOnLoopback(server);
    base = serverAddress.origin;
    dir = mkdtempSync(join(tmpdir(), 'flowblocks-cli-monitor-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  });

  function writeConfig(name: string, overrides: Record<string, unknown> = {}) {
    const file = join(dir, name);
    writeFileSync(
      file,
      JSON.stringify({
        baseUrl: base,
        apiKey: '${MONITOR_API_KEY}',
        workspaceId: 'ws-1',
        startFrom: new Date(start).toISOString(),
        notifications: {
          channels: [{ type: 'webhook', url: `${base}/hook`, secret: '${HOOK_SECRET}' }],
          allWorkflows: true,
          levelFilter: ['error'],
        },
        ...overrides,
      }),
    );
    return file;
  }

  it('--once reads the logs, sends signed deliveries, saves its state, and sends nothing twice on the next run', async () => {
    const config = writeConfig('monitor.json');
    const env = { MONITOR_API_KEY: API_KEY, HOOK_SECRET: SECRET };
    const first = await cli(['monitor', '--config', config, '--once'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(hooks).toHaveLength(1);
    const event = verifyWebhook({ body: hooks[0]!.body, headers: hooks[0]!.headers, secret: SECRET });
    expect(event.data.executionId).toBe('exec_1');
    expect(logRequests[0]?.get('order')).toBe('asc');
    expect(logRequests[0]?.get('level')).toBe('error');
    expect(first.stdout).toMatch(/monitor: workspace ws-1 at http:\/\/127\.0\.0\.1:\d+; all workflows; channels: webhook http:\/\/127\.0\.0\.1:\d+; every matching execution/);
    expect(first.stdout).toMatch(/execution exec_1 workflow wf-1 error api 1000 ms: 1 delivery queued/);
    expect(first.stdout).toMatch(/attempt 1\/6: delivered \(HTTP 200\)/);
    expect(first.stdout).toMatch(/done: 0 delivery\(ies\) pending/);
    expect(first.stdout + first.stderr).not.toContain(API_KEY);
    expect(first.stdout + first.stderr).not.toContain(SECRET);
    expect(JSON.parse(readFileSync(join(dir, '.flowblocks-monitor', 'state.json'), 'utf8'))).toMatchObject({ version: 1 });

    const second = await cli(['monitor', '--config', config, '--once'], env);
    expect(second.code).toBe(0);
    expect(hooks).toHaveLength(1);
    expect(second.stdout).toMatch(/0 new execution\(s\)/);
  });

  it('refuses a config naming the bad field, and a missing variable by name', async () => {
    const bad = writeConfig('bad.json', { workspaceId: '', notifications: { channels: [{ type: 'webhook', url: 'nope' }], allWorkflows: true } });
    const result = await cli(['monitor', '--config', bad, '--once'], { MONITOR_API_KEY: API_KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/workspaceId: /);
    expect(result.stderr).toMatch(/notifications\.channels\.0\.url: /);
    const missing = await cli(['monitor', '--config', writeConfig('env.json'), '--once'], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/apiKey: environment variable MONITOR_API_KEY is not set/);
  });

  it('exits 1 when the logs API refuses the key, without printing it', async () => {
    const config = writeConfig('wrong-key.json', { dataDir: 'wrong-key-state' });
    const result = await cli(['monitor', '--config', config, '--once'], { MONITOR_API_KEY: 'sk-wrong-key', HOOK_SECRET: SECRET });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the logs API refused the monitor \(unauthorized\): bad key/);
    expect(result.stderr).not.toContain('sk-wrong-key');
  });

  it('is listed in the help', async () => {
    expect((await cli(['help'])).stdout).toMatch(/flowblocks monitor\s+watch a workspace's logs/);
  });
});
