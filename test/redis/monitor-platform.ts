/**
 * A real HTTP logs API (paged with a cursor, as the platform pages) and a webhook receiver
 * that records every request's delivery id and execution, for monitors run as CLI processes.
 */
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import { fakeLog, type FakeLog } from '../notifications/logs-api.js';
import { ROOT, until } from '../helpers/monitor-process.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

export { exited, ROOT, until, writeConfig } from '../helpers/monitor-process.js';

/** The logs response's limits object: the enterprise plan (120 requests a minute, so 1 s polls are not stretched). */
const LIMITS = {
  workflowExecutionRateLimit: {
    sync: { requestsPerMinute: 10, maxBurst: 20, remaining: 20, resetAt: '2026-01-05T12:01:00Z' },
    async: { requestsPerMinute: 50, maxBurst: 100, remaining: 100, resetAt: '2026-01-05T12:01:00Z' },
  },
  usage: { currentPeriodCost: 1, limit: 10, plan: 'enterprise', isExceeded: false },
};

export async function platform() {
  const start = Date.now() - 3_600_000;
  const logs: FakeLog[] = [];
  const r = {
    start,
    base: '',
    logs,
    /** Requests per delivery id. */
    received: new Map<string, number>(),
    /** Delivery ids per execution id. */
    idsByExecution: new Map<string, Set<string>>(),
    acked: new Set<string>(),
    /** Requests for a delivery already acknowledged. */
    resentAfterAck: 0,
    /** After this many acknowledgements, requests get no answer (they stay in flight). */
    hangAfter: Infinity,
    hung: [] as { id: string; res: ServerResponse }[],
    /** Log pages from this offset get no answer (the monitor stays in the middle of its poll). */
    holdPagesFrom: Infinity,
    heldPages: [] as ServerResponse[],
    lastRequestAt: 0,
    requests: () => [...r.received.values()].reduce((a, b) => a + b, 0),
    /** Adds `n` completed executions after the ones there, 10 ms apart. */
    addLogs(n: number) {
      const from = logs.length;
      for (let i = from; i < from + n; i++) logs.push(fakeLog(i, start + i * 10));
    },
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/v1/logs') {
      // Ascending by start, from startDate; the cursor is the index of the next entry.
      const from = url.searchParams.get('startDate') ?? '';
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const cursor = url.searchParams.get('cursor');
      const rows = logs.filter((l) => l.startedAt >= from);
      const offset = cursor ? Number(Buffer.from(cursor, 'base64').toString('utf8')) : 0;
      if (offset >= r.holdPagesFrom) {
        r.heldPages.push(res);
        return;
      }
      const page = rows.slice(offset, offset + limit);
      const nextCursor = offset + limit < rows.length ? Buffer.from(String(offset + limit)).toString('base64') : undefined;
      res.setHeader('content-type', 'application/json');
      // Tokens to spare: the monitor's pacer reads pages back to back (as under a real burst allowance).
      res.setHeader('x-ratelimit-remaining', '1000');
      res.end(JSON.stringify({ data: page, nextCursor, limits: LIMITS }));
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const id = String(req.headers['svc-delivery-id']);
      const executionId = String((JSON.parse(body) as { data: { executionId: string } }).data.executionId);
      r.received.set(id, (r.received.get(id) ?? 0) + 1);
      const ids = r.idsByExecution.get(executionId) ?? new Set<string>();
      ids.add(id);
      r.idsByExecution.set(executionId, ids);
      if (r.acked.has(id)) r.resentAfterAck++;
      r.lastRequestAt = Date.now();
      if (r.acked.size >= r.hangAfter) {
        r.hung.push({ id, res });
        return;
      }
      r.acked.add(id);
      res.end('ok');
    });
  });
  const serverAddress = await listenOnLoopback(server);
  r.base = serverAddress.origin;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { r, close };
}

/** `flowblocks monitor` as a real process; its output lines, each with the time it arrived. */
export function monitorProcess(config: string, store: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/satellites/cli/index.ts', 'monitor', '--config', config, '--store', store], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: { at: number; text: string }[] = [];
  let rest = '';
  const take = (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop() ?? '';
    for (const text of parts) lines.push({ at: Date.now(), text });
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return {
    child,
    lines,
    output: () => lines.map((l) => l.text).join('\n') + rest,
    /** When a line matching `pattern` first arrived (waits for it). */
    async saw(pattern: RegExp, withinMs: number): Promise<number> {
      await until(() => lines.some((l) => pattern.test(l.text)) || child.exitCode !== null, withinMs, `a line matching ${pattern}`);
      const line = lines.find((l) => pattern.test(l.text));
      if (!line) throw new Error(`the monitor exited without ${pattern}:\n${lines.map((l) => l.text).join('\n')}`);
      return line.at;
    },
  };
}
