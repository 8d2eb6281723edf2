import { MockAgent } from 'undici';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** The body exactly as sent: a string, or bytes (gzip). */
  body: string | Buffer | undefined;
}

export interface MockReply {
  status: number;
  /** An object or array is sent as JSON; a string as text/plain unless headers say otherwise. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer this late (the request is recorded at once): longer than the call's time limit, a time-out. */
  delayMs?: number;
}

function queryOf(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

function headersOf(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw) return out;
  const entries: [string, unknown][] = Array.isArray(raw)
    ? (raw as unknown[]).reduce<[string, unknown][]>((acc, v, i, arr) => (i % 2 ? acc : [...acc, [String(v), arr[i + 1]]]), [])
    : Object.entries(raw as Record<string, unknown>);
  for (const [name, value] of entries) out[name.toLowerCase()] = String(value);
  return out;
}

function bodyOf(raw: unknown): string | Buffer | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return raw;
  if (raw instanceof Uint8Array) return Buffer.from(raw);
  return String(raw);
}

/**
 * One mocked origin with the network closed: replies are queued per method and path, and
 * every request that reaches it is recorded for assertions.
 */
export function mockService(origin: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(origin);
  const requests: RecordedRequest[] = [];

  function on(method: string, path: string, ...replies: MockReply[]) {
    for (const reply of replies) {
      const scope = pool
        .intercept({ method, path: (p: string) => p.split('?')[0] === path })
        .reply((opts) => {
          const [pathname = '', search = ''] = opts.path.split('?');
          requests.push({
            method: opts.method,
            path: pathname,
            query: queryOf(search),
            headers: headersOf(opts.headers),
            body: bodyOf(opts.body),
          });
          const headers = { ...reply.headers };
          let data: string | undefined;
          if (typeof reply.body === 'string') {
            data = reply.body;
            headers['content-type'] ??= 'text/plain; charset=utf-8';
          } else if (reply.body !== undefined) {
            data = JSON.stringify(reply.body);
            headers['content-type'] ??= 'application/json';
          }
          return { statusCode: reply.status, data: data ?? '', responseOptions: { headers } };
        });
      if (reply.delayMs) scope.delay(reply.delayMs);
    }
  }

  /** Makes the next request to `path` fail at the connection level. */
  function failConnection(method: string, path: string, times = 1) {
    pool
      .intercept({ method, path: (p: string) => p.split('?')[0] === path })
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
      .times(times);
  }

  return { agent, pool, requests, on, failConnection };
}
