/**
 * Each service at the root of its own port: the same state as the prefixed URLs, the same
 * refusals (loopback Host with that port, Origin rules, admin routes, the SQL gate), URLs in
 * bodies that name the port called, and a clear error when a port is taken.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { drainPending } from 'chdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/satellites/cli/main.js';
import { SandboxPortInUseError, startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { call, eventually } from './helpers.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

/** A raw request with any Host and headers (fetch does not let Host be set). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; json: Record<string, unknown> }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          /* plain text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const portOf = (url: string) => Number(new URL(url).port);

/** A port held by another server for the length of a test. */
async function busyPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer();
  const serverAddress = await listenOnLoopback(server);
  return { port: serverAddress.port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('service ports', () => {
  let sb: Sandbox;
  let own: NonNullable<Sandbox['serviceUrls']>;
  const admin = { authorization: 'Bearer p.sandbox-admin-token' };
  beforeAll(async () => {
    sb = await startSandbox({ tinybird: { jobStepMs: 20 }, loops: { requestsPerSecond: 1000 } });
    own = sb.serviceUrls!;
  }, 60_000);
  afterAll(async () => {
    await sb?.close();
    // One chdb data directory per process: let the closed session's last queries finish.
    await drainPending();
  });

  it('serves each service at the root of a port of its own, next to the prefixed URLs', () => {
    const origin = new URL(sb.urls.tinybird).origin;
    expect(sb.urls).toEqual({ tinybird: `${origin}/tinybird`, loops: `${origin}/loops/api/v1`, workflow: `${origin}/workflow` });
    const ports = [portOf(sb.urls.tinybird), portOf(own.tinybird), portOf(own.loops), portOf(own.workflow)];
    expect(new Set(ports).size).toBe(4);
    expect(own).toEqual({
      tinybird: `http://127.0.0.1:${ports[1]}`,
      loops: `http://127.0.0.1:${ports[2]}/api/v1`,
      workflow: `http://127.0.0.1:${ports[3]}`,
    });
  });

  it('shares state: rows sent to one port are read on the other', async () => {
    const sent = await call(`${own.tinybird}/v0/events?name=events&wait=true`, { method: 'POST', token: admin.authorization.slice(7), body: '{"timestamp":"2026-11-22 10:00:00","event":"shared","user_id":"s1"}' });
    expect(sent.status).toBe(200);
    const read = await call(`${sb.urls.tinybird}/v0/sql?q=${encodeURIComponent("SELECT count() AS n FROM events WHERE event = 'shared' FORMAT JSON")}`, { token: 'p.sandbox-admin-token' });
    expect(read.json.data).toEqual([{ n: 1 }]);
    const key = { 'x-api-key': 'wf-sandbox-team-key' };
    expect((await raw(`${own.workflow}/api/v1/logs?workspaceId=ws_sandbox`, { ...key, host: `127.0.0.1:${portOf(own.workflow)}` })).status).toBe(200);
  });

  it('answers Host: localhost and [::1] with the service port, and refuses any other Host', async () => {
    const port = portOf(own.tinybird);
    const sql = `${own.tinybird}/v0/sql?q=SELECT+1+FORMAT+JSON`;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) expect((await raw(sql, { ...admin, host })).status, host).toBe(200);
    for (const host of [`attacker.example:${port}`, `localhost:${portOf(sb.urls.tinybird)}`, 'localhost']) {
      const refused = await raw(sql, { ...admin, host });
      expect([refused.status, refused.json.error], host).toEqual([403, 'the sandbox answers only requests to 127.0.0.1, localhost or [::1] on its own port']);
    }
  });

  it('keeps the Origin rules: foreign pages refused, admin routes only from the port itself', async () => {
    const port = portOf(own.loops);
    const host = `127.0.0.1:${port}`;
    const foreign = await raw(`${own.loops}/api-key`, { host, origin: 'https://attacker.example', authorization: 'Bearer loops-sandbox-api-key' });
    expect(foreign.status).toBe(403);
    const outbox = `http://127.0.0.1:${port}/_sandbox/outbox`;
    expect((await raw(outbox, { host, origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await raw(outbox, { host, origin: `http://127.0.0.1:${portOf(sb.urls.loops)}` })).status).toBe(403);
    const adminPort = portOf(sb.admin.workflow);
    const write = await raw(`${sb.admin.workflow}/workflows/wf_x`, { host: `127.0.0.1:${adminPort}`, 'content-type': 'text/plain' }, 'PUT', '{}');
    expect([write.status, write.json.error]).toEqual([403, 'the sandbox admin routes take JSON bodies only (Content-Type: application/json)']);
    // The workflow port itself serves no admin route.
    const wfPort = portOf(own.workflow);
    const onService = await raw(`${own.workflow}/_sandbox/workflows/wf_x`, { host: `127.0.0.1:${wfPort}`, 'content-type': 'application/json' }, 'PUT', '{}');
    expect(onService.status).toBe(404);
  });

  it('runs the SQL gate on the Tinybird port', async () => {
    const q = encodeURIComponent("SELECT * FROM file('/etc/passwd', 'LineAsString') FORMAT JSON");
    const refused = await call(`${own.tinybird}/v0/sql?q=${q}`, { token: 'p.sandbox-admin-token' });
    expect(refused.status).toBe(403);
    expect(String(refused.json.error)).toMatch(/file/);
  });

  it('names the port called in URLs it answers with', async () => {
    const token = 'p.sandbox-admin-token';
    const form = { method: 'POST', token, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: "delete_condition=event%20%3D%20'none'" };
    const onOwn = await call(`${own.tinybird}/v0/datasources/events/delete`, form);
    expect(onOwn.json.job_url).toBe(`${own.tinybird}/v0/jobs/${String(onOwn.json.id)}`);
    // One active delete at a time: the first finishes (polled at its own URL) before the second.
    await eventually(async () => ((await call(String(onOwn.json.job_url), { token })).json.status === 'done' ? true : undefined));
    const onPrefix = await call(`${sb.urls.tinybird}/v0/datasources/events/delete`, form);
    expect(onPrefix.json.job_url).toBe(`${sb.urls.tinybird}/v0/jobs/${String(onPrefix.json.id)}`);
    const loops = { token: 'loops-sandbox-api-key' };
    expect((await call(`${own.loops}/transactional?perPage=10`, loops)).json.pagination).toMatchObject({ nextPage: null });
  });

  it('applies the faults of the service on its own port', async () => {
    sb.setFaults({ workflow: { rate5xx: 1 } });
    try {
      expect((await call(`${own.workflow}/api/v1/logs`)).status).toBe(503);
      expect((await call(`${own.tinybird}/v0/sql?q=SELECT+1`, { token: 'p.sandbox-admin-token' })).status).toBe(200);
    } finally {
      sb.setFaults({});
    }
  });
});

describe('port choices', () => {
  it('servicePorts: false opens only the prefixed port', async () => {
    const sb = await startSandbox({ servicePorts: false });
    try {
      expect(sb.serviceUrls).toBeUndefined();
      expect((await call(`${sb.urls.loops}/api-key`, { token: 'loops-sandbox-api-key' })).status).toBe(200);
    } finally {
      await sb.close();
      await drainPending();
    }
  }, 60_000);

  it('a taken service port fails with the service named, and frees everything it opened', async () => {
    const busy = await busyPort();
    try {
      const error = await startSandbox({ servicePorts: { loops: busy.port } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SandboxPortInUseError);
      expect(error).toMatchObject({ port: busy.port, service: 'loops', message: `port ${busy.port} on 127.0.0.1, the Loops port (servicePorts.loops), is already in use` });
      // Everything was closed: another sandbox starts in this process.
      const next = await startSandbox({ servicePorts: false });
      await next.close();
    } finally {
      await busy.close();
    }
  }, 60_000);

  it('the CLI names the flag that changes a taken port', async () => {
    const busy = await busyPort();
    let stderr = '';
    const io = { stdout: () => {}, stderr: (s: string) => (stderr += s), stdin: async () => '' };
    try {
      const code = await main(['sandbox', '--once', '--port', '0', '--tinybird-port', String(busy.port), '--loops-port', '0', '--workflow-port', '0'], io);
      expect(code).toBe(1);
      expect(stderr).toBe(
        `the sandbox did not start: port ${busy.port}, asked for Tinybird, is already in use (is tinybird-local running?): choose another with --tinybird-port <n> (0 picks a free one), or serve only the prefixed URLs with --no-service-ports\n`,
      );
      stderr = '';
      expect(await main(['sandbox', '--once', '--port', String(busy.port), '--no-service-ports'], io)).toBe(1);
      expect(stderr).toMatch(/asked for the prefixed URLs, is already in use: choose another with --port <n>/);
    } finally {
      await busy.close();
    }
  }, 60_000);

  it('the CLI banner says which client takes which URL', async () => {
    let stdout = '';
    const io = { stdout: (s: string) => (stdout += s), stderr: () => {}, stdin: async () => '' };
    expect(await main(['sandbox', '--once', '--port', '0', '--tinybird-port', '0', '--loops-port', '0', '--workflow-port', '0'], io)).toBe(0);
    expect(stdout).toMatch(/Tinybird {3}http:\/\/127\.0\.0\.1:\d+ +@tinybirdco\/sdk baseUrl, tb --host, curl, tools' base_url/);
    expect(stdout).toMatch(/Loops {6}http:\/\/127\.0\.0\.1:\d+\/api\/v1 +tools' --endpoint loops=…; loops SDK: client\.apiRoot = 'http:\/\/127\.0\.0\.1:\d+\/api\/'/);
    expect(stdout).toMatch(/The same services on one port, under prefixes \(the tools, the tour\): http:\/\/127\.0\.0\.1:\d+\/tinybird/);
    stdout = '';
    expect(await main(['sandbox', '--once', '--port', '0', '--no-service-ports'], io)).toBe(0);
    expect(stdout).toMatch(/Tinybird {3}http:\/\/127\.0\.0\.1:\d+\/tinybird /);
    expect(stdout).toMatch(/Service ports are off \(--no-service-ports\)/);
  }, 60_000);

  it('the CLI refuses bad port options with exit code 2', async () => {
    let stderr = '';
    const io = { stdout: () => {}, stderr: (s: string) => (stderr += s), stdin: async () => '' };
    expect(await main(['sandbox', '--loops-port', 'x'], io)).toBe(2);
    expect(stderr).toMatch(/^--loops-port takes a port number from 0 to 65535 \(0 picks a free one\)/);
    stderr = '';
    expect(await main(['sandbox', '--no-service-ports', '--workflow-port', '7183'], io)).toBe(2);
    expect(stderr).toMatch(/^--workflow-port and --no-service-ports do not go together/);
  });
});
