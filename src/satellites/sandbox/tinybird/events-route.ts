import { randomUUID } from 'node:crypto';
import { bodyText, BadBody } from '../http/body.js';
import type { SandboxRequest, SandboxResponse } from '../http/types.js';
import type { WindowDecision } from '../http/window-limit.js';
import { allows, type TokenDef } from './tokens.js';
import type { Workspace } from './workspace.js';

/** Events API errors are plain text lines, unlike the rest of the API. */
export const textError = (status: number, message: string, headers: Record<string, string> = {}): SandboxResponse => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  body: `${message}\n`,
});

export function rateLimitHeaders(decision: WindowDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
}

/** Splits NDJSON (or one JSON array) into events; a line that is not JSON is kept as text for quarantine. */
export function parseEvents(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown[];
    } catch {
      // Not one JSON array: read it line by line like any other body.
    }
  }
  const events: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      events.push(line);
    }
  }
  return events;
}

export interface EventsContext {
  workspace: Workspace;
  token: TokenDef | undefined;
  limit: WindowDecision;
  maxBytes: number;
  /** Data Sources being created from their first events right now. */
  creating: Set<string>;
  persist(): void;
}

/** `POST /v0/events`: NDJSON or JSON, gzip, `wait`, quarantine, auto-creation. */
export async function postEvents(req: SandboxRequest, ctx: EventsContext): Promise<SandboxResponse> {
  const headers = rateLimitHeaders(ctx.limit);
  if (!ctx.token) return textError(403, 'Invalid token', headers);
  if (!ctx.limit.allowed) return textError(429, 'Too many requests', { ...headers, 'retry-after': String(ctx.limit.resetSeconds) });
  const name = req.query.get('name');
  if (!name) return textError(400, "Missing 'name' parameter", headers);
  if (req.body.length > ctx.maxBytes) return textError(413, `Request body is larger than the ${ctx.maxBytes}-byte limit; split the batch`, headers);
  const format = (req.query.get('format') ?? 'ndjson').toLowerCase();
  if (format !== 'ndjson' && format !== 'json') return textError(501, `Format '${format}' is not implemented`, headers);
  let events: unknown[];
  try {
    events = parseEvents(bodyText(req));
  } catch (error) {
    if (error instanceof BadBody) return textError(400, error.message, headers);
    throw error;
  }
  if (events.length === 0) return textError(400, 'The request body holds no events', headers);
  const canCreate = allows(ctx.token, 'DATASOURCES:CREATE');
  if (!ctx.workspace.get(name)) {
    if (!canCreate) return textError(403, 'Invalid token for DS autocreation', headers);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return textError(400, `Invalid Data Source name '${name}'`, headers);
    // Two first ingests at once: the one that lost the race is told to retry, as the service does.
    if (ctx.creating.has(name)) return textError(409, `Data Source '${name}' is being created, retry the request`, headers);
    const objects = events.filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null && !Array.isArray(e));
    if (objects.length === 0) return textError(400, 'Data Source must be of type JSON', headers);
    ctx.creating.add(name);
    try {
      await ctx.workspace.createFromEvents(name, objects);
    } finally {
      ctx.creating.delete(name);
    }
    ctx.persist();
  } else if (!canCreate && !allows(ctx.token, 'DATASOURCES:APPEND', name)) {
    return textError(403, `token needs scope DATASOURCES:APPEND:${name}`, headers);
  }
  const result = await ctx.workspace.ingest(name, events, randomUUID());
  const wait = (req.query.get('wait') ?? '').toLowerCase() === 'true';
  return { status: wait ? 200 : 202, headers, body: result };
}
