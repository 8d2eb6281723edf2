import { MockAgent } from 'undici';

export interface FakeLog {
  id: string;
  workflowId: string;
  executionId: string;
  level: 'info' | 'error';
  trigger: string;
  startedAt: string;
  endedAt: string | null;
  totalDurationMs: number | null;
  cost: { total: number } | null;
  files: null;
}

export const ORIGIN = 'https://platform.example.com';

/** A log entry that started `startedAt` (epoch ms) and ran `durationMs`. */
export function fakeLog(n: number, startedAt: number, options: Partial<FakeLog> & { durationMs?: number } = {}): FakeLog {
  const duration = options.durationMs ?? 1_000;
  const { durationMs: _d, ...rest } = options;
  return {
    id: `log_${String(n).padStart(5, '0')}`,
    workflowId: 'wf-1',
    executionId: `exec_${n}`,
    level: 'info',
    trigger: 'api',
    startedAt: new Date(startedAt).toISOString(),
    endedAt: new Date(startedAt + duration).toISOString(),
    totalDurationMs: duration,
    cost: { total: 0.001 },
    files: null,
    ...rest,
  };
}

const limits = (plan: string) => ({
  workflowExecutionRateLimit: {
    sync: { requestsPerMinute: 10, maxBurst: 20, remaining: 20, resetAt: '2026-01-05T12:01:00Z' },
    async: { requestsPerMinute: 50, maxBurst: 100, remaining: 100, resetAt: '2026-01-05T12:01:00Z' },
  },
  usage: { currentPeriodCost: 1, limit: 10, plan, isExceeded: false },
});

/**
 * The logs endpoint as the platform serves it: `startDate` inclusive on `startedAt`, keyset
 * order by (startedAt, id), a standard-base64 cursor, `limit`. Queued special answers
 * (429s, headers) go out before the normal ones.
 */
export function fakeLogsApi(options: { plan?: string } = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const logs: FakeLog[] = [];
  const requests: { query: URLSearchParams; headers: Record<string, string> }[] = [];
  const special: { status: number; headers?: Record<string, string>; body?: unknown }[] = [];
  let headers: Record<string, string> = {};

  agent
    .get(ORIGIN)
    .intercept({ method: 'GET', path: (p: string) => p.startsWith('/api/v1/logs?') })
    .reply((opts) => {
      const query = new URLSearchParams(opts.path.split('?')[1]);
      requests.push({ query, headers: opts.headers as Record<string, string> });
      const next = special.shift();
      if (next) return { statusCode: next.status, data: JSON.stringify(next.body ?? {}), responseOptions: { headers: { 'content-type': 'application/json', ...next.headers } } };
      const start = query.get('startDate');
      const cursor = query.get('cursor');
      const after = cursor ? (JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { startedAt: string; id: string }) : undefined;
      const key = (l: { startedAt: string; id: string }) => `${l.startedAt}|${l.id}`;
      const rows = logs
        .filter((l) => !start || Date.parse(l.startedAt) >= Date.parse(start))
        .filter((l) => !after || key(l) > key(after))
        .sort((a, b) => (key(a) < key(b) ? -1 : 1));
      const limit = Number(query.get('limit') ?? 100);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const nextCursor =
        rows.length > limit && last ? Buffer.from(JSON.stringify({ startedAt: last.startedAt, id: last.id, order: 'asc' })).toString('base64') : undefined;
      return {
        statusCode: 200,
        data: JSON.stringify({ data: page, nextCursor, limits: limits(options.plan ?? 'pro') }),
        responseOptions: { headers: { 'content-type': 'application/json', ...headers } },
      };
    })
    .persist();

  return {
    agent,
    logs,
    requests,
    /** Answers the next request with this instead of a page. */
    answerNext(reply: { status: number; headers?: Record<string, string>; body?: unknown }) {
      special.push(reply);
    },
    setHeaders(next: Record<string, string>) {
      headers = next;
    },
  };
}
