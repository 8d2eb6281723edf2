/**
 * A server on 127.0.0.1 that answers each credential with its own list of replies, in order
 * (the last one repeats), headers sent exactly as given: an array is one header line per value.
 * Records every request it gets per credential.
 */
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { listenOnLoopback } from '../helpers/loopback-server.js';

export interface ScriptedReply {
  status: number;
  headers?: Record<string, string | string[]>;
  body: unknown;
}

export interface ScriptedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export async function startScriptedServer() {
  const scripts = new Map<string, { replies: ScriptedReply[]; requests: ScriptedRequest[] }>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const credential = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const script = scripts.get(credential);
      if (!script) return void res.writeHead(401).end();
      script.requests.push({ method: req.method!, path: req.url!.split('?')[0]!, headers: req.headers });
      const reply = script.replies.length > 1 ? script.replies.shift()! : script.replies[0]!;
      const headers: OutgoingHttpHeaders = { 'content-type': 'application/json', ...reply.headers };
      res.writeHead(reply.status, headers).end(JSON.stringify(reply.body));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const serverAddress = await listenOnLoopback(server);
  return {
    origin: serverAddress.origin,
    /** Answers `credential` with `replies`; returns the list its requests are recorded in. */
    script(credential: string, replies: ScriptedReply[]): ScriptedRequest[] {
      const requests: ScriptedRequest[] = [];
      scripts.set(credential, { replies: [...replies], requests });
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
