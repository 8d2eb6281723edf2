import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/satellites/cli/main.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { call } from './helpers.js';

let sb: Sandbox;
let key: string;

beforeAll(async () => {
  // A high limit here; the limit itself is tested on its own key below.
  sb = await startSandbox({ loops: { requestsPerSecond: 1000 } });
  key = sb.credentials.loops.apiKey;
});
afterAll(async () => sb?.close());

const loops = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; token?: string } = {}) =>
  call(`${sb.urls.loops}${path}`, {
    method: init.method ?? 'GET',
    token: init.token ?? key,
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

describe('auth and envelope', () => {
  it('answers a bad key with 401 in the {success:false, message} envelope', async () => {
    const res = await loops('/api-key', { token: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ success: false, message: 'Invalid API key' });
    expect((await loops('/api-key')).json).toEqual({ success: true, teamName: 'flowblocks sandbox' });
  });

  it('sends the rate-limit headers and answers 405 on a wrong method', async () => {
    const res = await loops('/lists');
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
    expect((await loops('/contacts/create', { method: 'GET' })).status).toBe(405);
  });

  it('adds injected latency and drops connections on demand, then serves normally again', async () => {
    try {
      sb.setFaults({ loops: { latencyMs: 150 } });
      const started = performance.now();
      expect((await loops('/lists')).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      sb.setFaults({ loops: { dropRate: 1 } });
      await expect(fetch(`${sb.urls.loops}/lists`, { headers: { authorization: `Bearer ${key}` } })).rejects.toThrow();
      sb.setFaults({ loops: { rate5xx: 1 } });
      const failed = await loops('/lists');
      expect([failed.status, failed.json.success]).toEqual([503, false]);
    } finally {
      sb.setFaults({});
    }
    expect((await loops('/lists')).status).toBe(200);
  });

  it('refuses a body value over 500 characters, quotes included', async () => {
    const ok = await loops('/contacts/create', { method: 'POST', body: { email: 'long@example.com', firstName: 'x'.repeat(498) } });
    expect(ok.status).toBe(200);
    const tooLong = await loops('/contacts/create', { method: 'POST', body: { email: 'longer@example.com', firstName: 'x'.repeat(499) } });
    expect([tooLong.status, tooLong.json.message]).toEqual([400, 'Some body key or value is longer than allowable']);
  });
});

describe('contacts', () => {
  it('creates, refuses a duplicate e-mail or userId with 409, and finds by exactly one identifier', async () => {
    const created = await loops('/contacts/create', { method: 'POST', body: { email: 'ada@example.com', userId: 'u_ada', firstName: 'Ada', planName: 'pro', mailingLists: { cm_list_newsletter: true } } });
    expect(created.json).toMatchObject({ success: true, id: expect.stringMatching(/^c[0-9a-f]{24}$/) });
    expect((await loops('/contacts/create', { method: 'POST', body: { email: 'ADA@example.com' } })).status).toBe(409);
    expect((await loops('/contacts/create', { method: 'POST', body: { email: 'other@example.com', userId: 'u_ada' } })).status).toBe(409);
    const found = await loops('/contacts/find?email=ada%40example.com');
    expect(found.json).toEqual([
      expect.objectContaining({ id: created.json.id, email: 'ada@example.com', firstName: 'Ada', source: 'API', subscribed: true, userId: 'u_ada', planName: 'pro', mailingLists: { cm_list_newsletter: true }, optInStatus: null }),
    ]);
    expect((await loops('/contacts/find?email=nobody%40example.com')).json).toEqual([]);
    expect((await loops('/contacts/find?email=ada%40example.com&userId=u_ada')).status).toBe(400);
    expect((await loops('/contacts/find')).status).toBe(400);
    expect((await loops('/contacts/create', { method: 'POST', body: { email: 'not-an-email' } })).json.message).toBe('Invalid email address.');
  });

  it('upserts by e-mail or userId, changes an e-mail through the userId, and resets a property with null', async () => {
    const made = await loops('/contacts/update', { method: 'PUT', body: { email: 'grace@example.com', userId: 'u_grace', planName: 'free' } });
    const again = await loops('/contacts/update', { method: 'PUT', body: { userId: 'u_grace', email: 'grace@navy.example', planName: null } });
    expect(again.json.id).toBe(made.json.id);
    const [contact] = (await loops('/contacts/find?userId=u_grace')).json as Record<string, unknown>[];
    expect(contact).toMatchObject({ email: 'grace@navy.example', planName: null });
    expect((await loops('/contacts/update', { method: 'PUT', body: { userId: 'u_unknown' } })).status).toBe(400);
    expect((await loops('/contacts/update', { method: 'PUT', body: {} })).status).toBe(400);
  });

  it('deletes by exactly one identifier and answers 404 the second time', async () => {
    await loops('/contacts/create', { method: 'POST', body: { email: 'gone@example.com' } });
    expect((await loops('/contacts/delete', { method: 'POST', body: { email: 'gone@example.com', userId: 'x' } })).status).toBe(400);
    const deleted = await loops('/contacts/delete', { method: 'POST', body: { email: 'gone@example.com' } });
    expect(deleted.json).toEqual({ success: true, message: 'Contact deleted.' });
    const again = await loops('/contacts/delete', { method: 'POST', body: { email: 'gone@example.com' } });
    expect([again.status, again.json.success]).toEqual([404, false]);
  });

  it('checks and lifts a suppression, using up the removal quota', async () => {
    const check = await loops('/contacts/suppression?email=bounced%40example.com');
    expect(check.json).toMatchObject({ isSuppressed: true, removalQuota: { limit: 5, remaining: 5 }, contact: { email: 'bounced@example.com', userId: 'user_bounced' } });
    const lifted = await loops('/contacts/suppression?userId=user_bounced', { method: 'DELETE' });
    expect(lifted.json).toEqual({ success: true, message: 'Email removed from suppression list.', removalQuota: { limit: 5, remaining: 4 } });
    expect((await loops('/contacts/suppression?email=bounced%40example.com', { method: 'DELETE' })).json.message).toBe('This contact is not suppressed.');
    expect((await loops('/contacts/suppression?email=nobody%40example.com')).status).toBe(404);
  });
});

describe('properties and lists', () => {
  it('creates camelCase properties of the four types, refusing reserved names and duplicates', async () => {
    expect((await loops('/contacts/properties', { method: 'POST', body: { name: 'favoriteColor', type: 'string' } })).json).toEqual({ success: true });
    const refusals = await Promise.all([
      loops('/contacts/properties', { method: 'POST', body: { name: 'favoriteColor', type: 'string' } }),
      loops('/contacts/properties', { method: 'POST', body: { name: 'teamId', type: 'string' } }),
      loops('/contacts/properties', { method: 'POST', body: { name: 'Shoe_size', type: 'number' } }),
      loops('/contacts/properties', { method: 'POST', body: { name: 'shoeSize', type: 'integer' } }),
      loops('/contacts/properties', { method: 'POST', body: { name: 'email', type: 'string' } }),
    ]);
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect(refusals[0]!.json.message).toBe('Property already exists.');
    const custom = (await loops('/contacts/properties?list=custom')).json as { key: string }[];
    expect(custom.map((p) => p.key)).toEqual(['planName', 'signupCount', 'favoriteColor']);
    const all = (await loops('/contacts/properties')).json as { key: string; type: string }[];
    expect(all).toContainEqual({ key: 'subscribed', label: 'Subscribed', type: 'boolean' });
  });

  it('lists mailing lists as a bare array', async () => {
    expect((await loops('/lists')).json).toEqual([
      { id: 'cm_list_newsletter', name: 'Newsletter', description: 'Product news, monthly', isPublic: true },
      { id: 'cm_list_beta', name: 'Beta testers', description: null, isPublic: false },
    ]);
  });
});

describe('transactional e-mail', () => {
  const send = (body: unknown, idempotencyKey?: string) =>
    loops('/transactional', { method: 'POST', body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

  it('sends a published template with its variables into the outbox', async () => {
    const res = await send({ transactionalId: 'tx_welcome', email: 'new@example.com', dataVariables: { firstName: 'Lin', confirmationUrl: 'https://x.test/c' }, addToAudience: true });
    expect(res.json).toEqual({ success: true });
    const outbox = (await call(sb.admin.loopsOutbox)).json as unknown as { emails: Record<string, unknown>[] };
    expect(outbox.emails.at(-1)).toMatchObject({ to: 'new@example.com', subject: 'Welcome to flowblocks, Lin', body: 'Hi Lin, confirm your address: https://x.test/c', status: 'sent' });
    expect((await loops('/contacts/find?email=new%40example.com')).json).toHaveLength(1);
  });

  it('prints the outbox with flowblocks sandbox outbox', async () => {
    let stdout = '';
    const origin = sb.urls.loops.replace(/\/loops\/api\/v1$/, '');
    const code = await main(['sandbox', 'outbox', '--url', origin], { stdout: (s) => (stdout += s), stderr: () => {}, stdin: async () => '' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/sent\s+new@example\.com\s+tx_welcome\s+Welcome to flowblocks, Lin/);
  });

  it('refuses missing variables, drafts and unknown templates with the documented bodies', async () => {
    const missing = await send({ transactionalId: 'tx_welcome', email: 'a@example.com', dataVariables: { firstName: 'A' } });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({
      success: false,
      message: 'Missing required data variable(s): confirmationUrl',
      error: { path: 'dataVariables', message: 'Missing required data variable(s): confirmationUrl' },
      transactionalId: 'tx_welcome',
    });
    expect((await send({ transactionalId: 'tx_draft_invoice', email: 'a@example.com', dataVariables: { number: 1 } })).status).toBe(400);
    const unknown = await send({ transactionalId: 'tx_nope', email: 'a@example.com' });
    expect([unknown.status, (unknown.json.error as { path: string }).path]).toEqual([404, 'transactionalId']);
  });

  it('remembers idempotency keys: a reuse is a 409, a refused request does not use its key', async () => {
    const body = { transactionalId: 'tx_daily_report', email: 'ops@example.com', dataVariables: { total: 3 } };
    expect((await send({ ...body, dataVariables: {} }, 'key-1')).status).toBe(400);
    expect((await send(body, 'key-1')).status).toBe(200);
    const reused = await send(body, 'key-1');
    expect([reused.status, reused.json.message]).toEqual([409, 'Idempotency key already used.']);
    const different = await send({ ...body, email: 'other@example.com' }, 'key-1');
    expect(different.json.message).toBe('Idempotency key already used with a different request body.');
    expect((await send(body, 'k'.repeat(101))).status).toBe(400);
    const eventKey = { eventName: 'signup', email: 'ops@example.com' };
    expect((await loops('/events/send', { method: 'POST', body: eventKey, headers: { 'idempotency-key': 'evt-1' } })).status).toBe(200);
    expect((await loops('/events/send', { method: 'POST', body: eventKey, headers: { 'idempotency-key': 'evt-1' } })).status).toBe(409);
  });

  it('pages templates with perPage 10 to 50 and an opaque cursor', async () => {
    const page = await loops('/transactional?perPage=10');
    expect(page.json).toMatchObject({ pagination: { totalResults: 3, returnedResults: 3, perPage: 10, nextCursor: null, nextPage: null } });
    expect((page.json.data as { id: string }[]).map((t) => t.id)).toEqual(['tx_welcome', 'tx_daily_report', 'tx_execution_alert']);
    const newer = await loops('/transactional-emails?perPage=10');
    expect((newer.json.data as { id: string }[]).map((t) => t.id)).toEqual(['tx_execution_alert', 'tx_draft_invoice', 'tx_daily_report', 'tx_welcome']);
    const bad = await loops('/transactional-emails?perPage=5');
    expect([bad.status, bad.json]).toEqual([400, { message: 'perPage must be a number between 10 and 50.' }]);
    expect((await loops('/transactional?cursor=garbage')).status).toBe(400);
  });
});

describe('events', () => {
  it('records an event and creates the contact it names, applying contact properties', async () => {
    const res = await loops('/events/send', { method: 'POST', body: { eventName: 'planUpgraded', email: 'evt@example.com', planName: 'team', eventProperties: { ' seats ': 5 } } });
    expect(res.json).toEqual({ success: true });
    expect(((await loops('/contacts/find?email=evt%40example.com')).json as Record<string, unknown>[])[0]).toMatchObject({ planName: 'team' });
    const events = (await call(sb.admin.loopsEvents)).json as unknown as { events: Record<string, unknown>[] };
    expect(events.events.at(-1)).toMatchObject({ eventName: 'planUpgraded', email: 'evt@example.com', eventProperties: { seats: 5 } });
    expect((await loops('/events/send', { method: 'POST', body: { email: 'evt@example.com' } })).status).toBe(400);
  });
});
