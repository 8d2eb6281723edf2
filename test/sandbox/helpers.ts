import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from '../helpers/loopback-server.js';

/** A raw HTTP call with undici's fetch: status, headers, text body. */
export async function call(url: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as Record<string, unknown> & unknown[] };
}

/** Polls until `check` returns a value, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A static file server on 127.0.0.1 for append-from-URL tests. */
export async function fileServer(files: Record<string, string | Buffer>): Promise<{ url: (name: string) => string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const body = files[(req.url ?? '/').slice(1)];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200).end(body);
  });
  const { port } = await listenOnLoopback(server);
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Receives webhook POSTs on 127.0.0.1 and keeps their raw bodies and headers. */
export async function webhookReceiver(): Promise<{
  url: string;
  received: { headers: Record<string, string>; body: string }[];
  close(): Promise<void>;
}> {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  const { port } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
