import { createHash } from 'node:crypto';
import { bodyText } from '../http/body.js';
import { createRouter } from '../http/router.js';
import type { SandboxRequest, SandboxResponse, ServiceApp } from '../http/types.js';
import { windowLimiter } from '../http/window-limit.js';
import { checkSuppression, createContact, deleteContact, findContacts, removeSuppression, upsertContact } from './contacts.js';
import { checkValueLengths, fail, LoopsError } from './errors.js';
import { sendEvent } from './events.js';
import { createProperty, listProperties } from './properties.js';
import { loadState } from './state.js';
import { getTemplate, listTemplates, sendTransactional } from './transactional.js';
import { eventPatterns, listEventPatterns } from './event-patterns.js';
import { teamName } from '../fixtures/loops.js';

export interface LoopsOptions {
  apiKeys: string[];
  /** Requests per second per key. Default 10, Loops' baseline. */
  requestsPerSecond?: number;
}

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const API = '/api/v1';

function jsonObject(req: SandboxRequest): Record<string, unknown> {
  const text = bodyText(req);
  if (!text.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail(400, 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fail(400, 'The request body must be a JSON object.');
  checkValueLengths(body);
  return body as Record<string, unknown>;
}

/** The e-mail service (Loops-compatible): contacts, properties, lists, transactional e-mail, events, suppression. */
export function createLoops(options: LoopsOptions, dataDir: string | undefined) {
  const { state, save } = loadState(dataDir);
  const limiter = windowLimiter(options.requestsPerSecond ?? 10, 1000);

  /** Remembers an idempotency key for 24 h; a reuse is a 409, with or without the same body. */
  const idempotent = (handler: (req: SandboxRequest) => SandboxResponse) => (req: SandboxRequest): SandboxResponse => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string') return handler(req);
    if (key.length > 100) throw fail(400, 'Idempotency-Key must be at most 100 characters.');
    const now = Date.now();
    for (const [k, seen] of Object.entries(state.idempotency)) if (now - seen.at > IDEMPOTENCY_WINDOW_MS) delete state.idempotency[k];
    const bodyHash = createHash('sha256').update(req.body).digest('hex');
    const seen = state.idempotency[key];
    if (seen) {
      throw fail(409, seen.body === bodyHash ? 'Idempotency key already used.' : 'Idempotency key already used with a different request body.');
    }
    const result = handler(req);
    // Only an accepted request uses up its key: a refused one may be corrected and resent.
    state.idempotency[key] = { at: now, body: bodyHash };
    return result;
  };

  const router = createRouter({
    notFound: (req) => new LoopsError(404, `No route ${req.method} ${req.path}`).toResponse(),
    methodNotAllowed: (req) => new LoopsError(405, `Method ${req.method} not allowed.`).toResponse(),
  });
  const json = (status: number, body: unknown): SandboxResponse => ({ status, body });
  router.get(`${API}/api-key`, () => json(200, { success: true, teamName }));
  router.post(`${API}/contacts/create`, (req) => json(200, createContact(state, jsonObject(req))));
  router.put(`${API}/contacts/update`, (req) => json(200, { success: true, id: upsertContact(state, jsonObject(req)).id }));
  router.get(`${API}/contacts/find`, (req) => json(200, findContacts(state, req.query)));
  router.post(`${API}/contacts/delete`, (req) => json(200, deleteContact(state, jsonObject(req))));
  router.get(`${API}/contacts/suppression`, (req) => json(200, checkSuppression(state, req.query)));
  router.delete(`${API}/contacts/suppression`, (req) => json(200, removeSuppression(state, req.query)));
  router.get(`${API}/contacts/properties`, (req) => json(200, listProperties(state, req.query.get('list'))));
  router.post(`${API}/contacts/properties`, (req) => json(200, createProperty(state, jsonObject(req))));
  router.get(`${API}/lists`, () => json(200, state.mailingLists));
  router.post(
    `${API}/events/send`,
    idempotent((req) => json(200, sendEvent(state, jsonObject(req)))),
  );
  router.post(
    `${API}/transactional`,
    idempotent((req) => json(200, sendTransactional(state, jsonObject(req), req.body.length))),
  );
  router.get(`${API}/transactional`, (req) => json(200, listTemplates(state, req, false)));
  router.get(`${API}/transactional-emails`, (req) => {
    try {
      return json(200, listTemplates(state, req, true));
    } catch (error) {
      // The newer endpoint's 400 body is `{message}` without `success`.
      if (error instanceof LoopsError) return json(error.status, { message: error.message });
      throw error;
    }
  });
  router.get(`${API}/transactional-emails/:id`, (req) => {
    try {
      return json(200, getTemplate(state, req.params.id!));
    } catch (error) {
      if (error instanceof LoopsError) return json(error.status, { message: error.message });
      throw error;
    }
  });
  router.get(`${API}/event-patterns`, (req) => {
    try {
      return json(200, listEventPatterns(state, req));
    } catch (error) {
      if (error instanceof LoopsError) return json(error.status, { message: error.message });
      throw error;
    }
  });
  const patternReply = (pattern: ReturnType<typeof eventPatterns>[number] | undefined) =>
    pattern ? json(200, pattern) : json(404, { message: 'Event pattern not found.' });
  router.get(`${API}/event-patterns/by-name/:name`, (req) => patternReply(eventPatterns(state).find((p) => p.eventName === req.params.name)));
  router.get(`${API}/event-patterns/:id`, (req) => patternReply(eventPatterns(state).find((p) => p.id === req.params.id)));
  // Addresses of the documentation range (RFC 5737): the sandbox sends nothing.
  router.get(`${API}/dedicated-sending-ips`, () => json(200, ['203.0.113.10', '203.0.113.11']));
  // Sandbox-only: what the sandbox "sent" and received, for people and the CLI.
  router.get('/_sandbox/outbox', () => json(200, { emails: state.outbox }));
  router.get('/_sandbox/events', () => json(200, { events: state.events }));

  const app: ServiceApp = {
    handle: async (req) => {
      if (req.path.startsWith('/_sandbox/')) return router.handle(req);
      const key = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
      if (!key || !options.apiKeys.includes(key)) {
        return { status: 401, body: { success: false, message: 'Invalid API key', error: 'Invalid API key' } };
      }
      const decision = limiter.take(key);
      const headers = { 'x-ratelimit-limit': String(decision.limit), 'x-ratelimit-remaining': String(decision.remaining) };
      if (!decision.allowed) return { status: 429, headers, body: { success: false, message: 'Rate limit exceeded' } };
      let reply: SandboxResponse;
      try {
        reply = await router.handle(req);
        if (req.method !== 'GET' && reply.status < 300) save();
      } catch (error) {
        if (!(error instanceof LoopsError)) throw error;
        reply = error.toResponse();
      }
      return { ...reply, headers: { ...headers, ...reply.headers } };
    },
    faultReply: (status) => ({
      status,
      body: { success: false, message: status === 429 ? 'Rate limit exceeded' : 'Internal server error' },
    }),
  };
  return { app, state };
}
