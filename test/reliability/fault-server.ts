/**
 * A server on 127.0.0.1 that answers the first request of each case with a fault and every
 * later one with the case's success reply. Cases are told apart by their credential (every
 * case has a unique one), and the fault bodies echo it back, so redaction is tested too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ReliabilityCase } from './tool-cases.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

export const FAULTS = [
  '500', '502', '503', '504', '429 with Retry-After', '429 without Retry-After', 'time-out',
  'reset mid-body', 'malformed JSON', 'HTML error page', 'empty body', 'slow body', 'stalled body', 'body over the size cap',
] as const;
export type Fault = (typeof FAULTS)[number];

/** The size cap the matrix runs with (`maxResponseBytes`); the oversized reply is past it. */
export const SIZE_CAP = 64 * 1024;

export interface SeenRequest {
  method: string;
  url: string;
}

interface Registered {
  tool: ReliabilityCase;
  fault: Fault;
  requests: SeenRequest[];
}

function credentialOf(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? '';
  return auth.startsWith('Bearer ') ? auth.slice(7) : String(req.headers['x-api-key'] ?? '');
}

function sendReply(res: ServerResponse, reply: ReliabilityCase['reply']): void {
  if (reply.body === undefined) return void res.writeHead(reply.status).end();
  res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
}

function sendFault(res: ServerResponse, fault: Fault, secret: string, tool: ReliabilityCase): void {
  const echo = JSON.stringify({ error: `injected fault for key ${secret}`, message: secret });
  const json = { 'content-type': 'application/json' };
  switch (fault) {
    case '500':
    case '502':
    case '503':
    case '504':
      return void res.writeHead(Number(fault), json).end(echo);
    case '429 with Retry-After':
      return void res.writeHead(429, { ...json, 'retry-after': '1' }).end(echo);
    case '429 without Retry-After':
      return void res.writeHead(429, json).end(echo);
    case 'time-out':
      return; // never answers; the socket is destroyed when the server closes
    case 'reset mid-body':
      res.writeHead(200, { ...json, 'content-length': '4096' });
      res.write(`{"token":"${secret}",`);
      return void setTimeout(() => res.socket?.destroy(), 10);
    case 'malformed JSON':
      return void res.writeHead(200, json).end(`{"success": tru ${secret}`);
    case 'HTML error page':
      return void res.writeHead(502, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><p>${secret}</p></body></html>`);
    case 'empty body':
      return void res.writeHead(200, { ...json, 'content-length': '0' }).end();
    case 'slow body': {
      // The whole success reply, in four pieces 40 ms apart: inside the time limit.
      const text = tool.reply.body === undefined ? '' : JSON.stringify(tool.reply.body);
      res.writeHead(tool.reply.status, text ? json : {});
      const step = Math.ceil(text.length / 4) || 1;
      let at = 0;
      const drip = () => {
        if (at >= text.length) return void res.end();
        res.write(text.slice(at, (at += step)));
        setTimeout(drip, 40);
      };
      return drip();
    }
    case 'stalled body':
      res.writeHead(200, json);
      return void res.write('{"data":');
    case 'body over the size cap': {
      // Chunked (no length), so the cap is enforced while reading, not from a header.
      res.writeHead(200, json);
      const filler = `"${'x'.repeat(1024)}",`;
      res.write(`{"secret":"${secret}","pad":[`);
      for (let i = 0; i < (SIZE_CAP * 2) / 1024; i++) res.write(filler);
      return void res.end('"x"]}');
    }
  }
}

export async function startFaultServer() {
  const cases = new Map<string, Registered>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const secret = credentialOf(req);
      const entry = cases.get(secret);
      if (!entry) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unknown case"}');
      entry.requests.push({ method: req.method ?? '', url: req.url ?? '' });
      if (entry.requests.length === 1) sendFault(res, entry.fault, secret, entry.tool);
      else sendReply(res, entry.tool.reply);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const { origin } = await listenOnLoopback(server);
  return {
    origin,
    /** Registers a case under its credential; returns the requests it will receive. */
    register(secret: string, tool: ReliabilityCase, fault: Fault): SeenRequest[] {
      const requests: SeenRequest[] = [];
      cases.set(secret, { tool, fault, requests });
      return requests;
    },
    close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
