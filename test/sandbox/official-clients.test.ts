/**
 * Contract test of the official clients: the `loops` SDK and `@tinybirdco/sdk`, unchanged,
 * against the sandbox's own service ports (`serviceUrls`). Every client method that maps to
 * an operation the sandbox serves is called and its answer asserted, so the emulator cannot
 * drift from what real clients send and expect; the methods of operations it does not serve
 * are called too, and must fail as a missing route does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APIError, LoopsClient, RateLimitExceededError } from 'loops';
import { TinybirdApi, TinybirdClient, TinybirdError } from '@tinybirdco/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { LOOPS_API_KEY, TINYBIRD_TOKENS } from '../../src/satellites/sandbox/fixtures/credentials.js';
import { eventually } from './helpers.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

let sb: Sandbox;
let files: Server;
let fileUrl: string;
const adminToken = TINYBIRD_TOKENS.find((t) => t.name === 'admin')!.token;
const readToken = TINYBIRD_TOKENS.find((t) => t.name === 'read')!.token;

beforeAll(async () => {
  // 10 requests per second is Loops' own limit; the calls below come faster than that.
  files = createServer((_, res) => res.end('{"timestamp":"2026-11-22 12:00:00","event":"imported","user_id":"i1"}\n'));
  const filesAddress = await listenOnLoopback(files);
  fileUrl = `${filesAddress.origin}/rows.ndjson`;
  // The file server is an origin the sandbox may import from: given at start.
  sb = await startSandbox({ tinybird: { importFrom: [new URL(fileUrl).origin], jobStepMs: 20 }, loops: { requestsPerSecond: 1000 } });
}, 60_000);
afterAll(async () => {
  await sb?.close();
  await new Promise((resolve) => files?.close(resolve));
});

/** The rejection of a call, to assert on its class and fields. */
async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('the call succeeded');
}

describe('loops SDK (LoopsClient with apiRoot at the Loops port)', () => {
  let loops: LoopsClient;
  beforeAll(() => {
    loops = new LoopsClient(LOOPS_API_KEY);
    // The SDK's option: a public field, `https://app.loops.so/api/` by default.
    loops.apiRoot = `${new URL(sb.serviceUrls!.loops).origin}/api/`;
  });

  it('testApiKey', async () => {
    expect(await loops.testApiKey()).toEqual({ success: true, teamName: 'flowblocks sandbox' });
    const wrong = new LoopsClient('not-a-key');
    wrong.apiRoot = loops.apiRoot;
    expect(await failure(wrong.testApiKey())).toMatchObject({ name: 'APIError', statusCode: 401, message: '401 - Invalid API key' });
  });

  it('createContact, updateContact, findContact, deleteContact', async () => {
    const created = (await loops.createContact({ email: 'ada@example.com', properties: { firstName: 'Ada', userId: 'u_ada' } })) as { success: boolean; id: string };
    expect(created).toEqual({ success: true, id: expect.any(String) });
    const duplicate = await failure(loops.createContact({ email: 'ada@example.com' }));
    expect(duplicate).toBeInstanceOf(APIError);
    expect(duplicate.statusCode).toBe(409);
    expect(await loops.updateContact({ email: 'ada@example.com', properties: { lastName: 'Lovelace', planName: 'pro' } })).toEqual({ success: true, id: created.id });
    expect(await loops.findContact({ userId: 'u_ada' })).toEqual([
      expect.objectContaining({ id: created.id, email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', userId: 'u_ada', planName: 'pro' }),
    ]);
    expect(await loops.findContact({ email: 'nobody@example.com' })).toEqual([]);
    expect(await loops.deleteContact({ email: 'ada@example.com' })).toEqual({ success: true, message: 'Contact deleted.' });
    expect(await failure(loops.deleteContact({ email: 'ada@example.com' }))).toMatchObject({ statusCode: 404 });
  });

  it('createContactProperty, listContactProperties', async () => {
    expect(await loops.createContactProperty('favoriteColor', 'string')).toEqual({ success: true });
    expect(await failure(loops.createContactProperty('favoriteColor', 'string'))).toMatchObject({ statusCode: 400 });
    const custom = (await loops.listContactProperties('custom')) as { key: string; type: string }[];
    expect(custom.map((p) => p.key)).toEqual(['planName', 'signupCount', 'favoriteColor']);
    const all = (await loops.listContactProperties()) as { key: string }[];
    expect(all.map((p) => p.key)).toEqual(expect.arrayContaining(['email', 'firstName', 'userId', 'planName']));
  });

  it('listMailingLists', async () => {
    expect(await loops.listMailingLists()).toEqual([
      { id: 'cm_list_newsletter', name: 'Newsletter', description: 'Product news, monthly', isPublic: true },
      { id: 'cm_list_beta', name: 'Beta testers', description: null, isPublic: false },
    ]);
  });

  it('sendEvent, with an Idempotency-Key header', async () => {
    const event = { email: 'grace@example.com', eventName: 'signup', eventProperties: { plan: 'team' }, headers: { 'Idempotency-Key': 'evt-1' } };
    expect(await loops.sendEvent(event)).toEqual({ success: true });
    expect(await failure(loops.sendEvent(event))).toMatchObject({ statusCode: 409 });
    expect(await loops.findContact({ email: 'grace@example.com' })).toHaveLength(1);
  });

  it('listTransactionalEmails: published and draft templates, with a next page on the Loops port', async () => {
    const page = await loops.listTransactionalEmails({ perPage: 10 });
    expect(page.data.map((t) => [t.id, t.publishedEmailMessageId !== null])).toEqual([
      ['tx_execution_alert', true],
      ['tx_draft_invoice', false],
      ['tx_daily_report', true],
      ['tx_welcome', true],
    ]);
    expect(page.pagination).toMatchObject({ totalResults: 4, perPage: 10, nextCursor: null, nextPage: null });
  });

  it('sendTransactionalEmail: a published template lands in the outbox, a draft is refused', async () => {
    const sent = { transactionalId: 'tx_welcome', email: 'ada@example.com', addToAudience: true, dataVariables: { firstName: 'Ada', confirmationUrl: 'https://example.com/c' } };
    expect(await loops.sendTransactionalEmail(sent)).toEqual({ success: true });
    const missing = await failure(loops.sendTransactionalEmail({ ...sent, dataVariables: { firstName: 'Ada' } }));
    expect(missing).toMatchObject({ statusCode: 400 });
    const draft = await failure(loops.sendTransactionalEmail({ transactionalId: 'tx_draft_invoice', email: 'ada@example.com', dataVariables: { number: '7' } }));
    expect(draft).toMatchObject({ name: 'APIError', statusCode: 400, message: '400 - Transactional email is not published.' });
    const outbox = (await (await fetch(`${new URL(sb.serviceUrls!.loops).origin}/_sandbox/outbox`)).json()) as { emails: { to: string; subject: string }[] };
    expect(outbox.emails).toEqual([expect.objectContaining({ to: 'ada@example.com', subject: 'Welcome to flowblocks, Ada' })]);
  });

  it('checkContactSuppression, removeContactSuppression', async () => {
    expect(await loops.checkContactSuppression({ email: 'bounced@example.com' })).toMatchObject({ isSuppressed: true, removalQuota: { limit: 5, remaining: 5 } });
    expect(await loops.removeContactSuppression({ userId: 'user_bounced' })).toMatchObject({ success: true, removalQuota: { remaining: 4 } });
    expect(await loops.checkContactSuppression({ email: 'bounced@example.com' })).toMatchObject({ isSuppressed: false });
  });

  it('a 429 reaches the SDK as RateLimitExceededError', async () => {
    sb.setFaults({ loops: { rate429: 1 } });
    try {
      expect(await failure(loops.testApiKey())).toBeInstanceOf(RateLimitExceededError);
    } finally {
      sb.setFaults({});
    }
  });

  it('getTransactionalEmail and listDedicatedSendingIps', async () => {
    expect(await loops.getTransactionalEmail('tx_welcome')).toMatchObject({ id: 'tx_welcome', dataVariables: expect.arrayContaining(['firstName']) });
    expect(await loops.listDedicatedSendingIps()).toEqual(['203.0.113.10', '203.0.113.11']);
    expect(await failure(loops.getTransactionalEmail('tx_nope'))).toMatchObject({ name: 'APIError', statusCode: 404 });
  });
});

describe('@tinybirdco/sdk (TinybirdClient and TinybirdApi with baseUrl at the Tinybird port)', () => {
  let tb: TinybirdClient;
  let api: TinybirdApi;
  beforeAll(() => {
    tb = new TinybirdClient({ baseUrl: sb.serviceUrls!.tinybird, token: adminToken });
    api = new TinybirdApi({ baseUrl: sb.serviceUrls!.tinybird, token: adminToken });
  });

  it('ingest, ingestBatch, datasources.ingest (wait=true)', async () => {
    expect(await tb.ingest('events', { timestamp: '2026-11-22 10:00:00', event: 'signup', user_id: 'u1', amount: 9.5 })).toEqual({ successful_rows: 1, quarantined_rows: 0 });
    const batch = [
      { timestamp: '2026-11-22 10:01:00', event: 'login', user_id: 'u1' },
      { timestamp: 'not a time', event: 'login', user_id: 'u2' },
    ];
    expect(await tb.ingestBatch('events', batch)).toEqual({ successful_rows: 1, quarantined_rows: 1 });
    expect(await tb.datasources.ingest('events', { timestamp: '2026-11-22 10:02:00', event: 'login', user_id: 'u3' })).toEqual({ successful_rows: 1, quarantined_rows: 0 });
    expect(await api.ingest('events', { timestamp: '2026-11-22 10:03:00', event: 'logout', user_id: 'u1' })).toEqual({ successful_rows: 1, quarantined_rows: 0 });
    const refused = await failure(new TinybirdClient({ baseUrl: sb.serviceUrls!.tinybird, token: readToken }).ingest('events', { event: 'x' }));
    expect(refused).toBeInstanceOf(TinybirdError);
    expect(refused.statusCode).toBe(403);
  });

  it('sql: rows, meta and statistics; refused SQL is a TinybirdError with the status', async () => {
    const result = await tb.sql<{ event: string; n: number }>('SELECT event, toUInt32(count()) AS n FROM events GROUP BY event ORDER BY event FORMAT JSON');
    expect(result).toMatchObject({
      data: [
        { event: 'login', n: 2 },
        { event: 'logout', n: 1 },
        { event: 'signup', n: 1 },
      ],
      meta: [
        { name: 'event', type: 'LowCardinality(String)' },
        { name: 'n', type: 'UInt32' },
      ],
      rows: 3,
      statistics: { elapsed: expect.any(Number), rows_read: expect.any(Number) },
    });
    expect(await api.sql('SELECT 1 AS one FORMAT JSON')).toMatchObject({ data: [{ one: 1 }], rows: 1 });
    // The SQL gate runs on the service port as on the prefixed one.
    const gated = await failure(tb.sql("SELECT * FROM file('/etc/passwd', 'LineAsString') FORMAT JSON"));
    expect(gated).toMatchObject({ name: 'TinybirdError', statusCode: 403 });
    expect(await failure(tb.sql('SELECT * FROM nowhere FORMAT JSON'))).toMatchObject({ statusCode: 403, message: "Resource 'nowhere' not found" });
  });

  it('query: a pipe endpoint with its parameters', async () => {
    expect(await tb.query('top_events', { limit: 1 })).toMatchObject({ data: [{ event: 'login', total: 2, users: 2 }], rows: 1 });
    expect(await api.query('top_events', { event: 'signup' })).toMatchObject({ data: [{ event: 'signup', total: 1, users: 1 }] });
    expect(await failure(tb.query('top_events', { limit: 'many' }))).toMatchObject({ statusCode: 400 });
    expect(await failure(tb.query('no_such_pipe'))).toMatchObject({ statusCode: 404 });
  });

  it('datasources.append from a URL: a job on the Tinybird port that finishes', async () => {
    const job = (await tb.datasources.append('events', { url: fileUrl })) as unknown as { id: string; job_url: string; status: string };
    expect(job).toMatchObject({ id: expect.any(String), status: 'waiting', job_url: `${sb.serviceUrls!.tinybird}/v0/jobs/${job.id}` });
    const done = await eventually(async () => {
      const state = await api.requestJson<{ status: string; statistics?: { row_count: number } }>(job.job_url);
      return state.status === 'done' ? state : undefined;
    });
    expect(done.statistics).toEqual(expect.objectContaining({ row_count: 1 }));
    expect(await api.appendDatasource('events', { url: fileUrl })).toMatchObject({ status: 'waiting' });
  });

  it('datasources.delete: dry run counts, then a job', async () => {
    expect(await tb.datasources.delete('events', { deleteCondition: "event = 'logout'", dryRun: true })).toEqual({ rows_to_be_deleted: 1 });
    const job = await tb.datasources.delete('events', { deleteCondition: "event = 'logout'" });
    expect(job).toMatchObject({ id: expect.any(String), job_id: job.id, delete_id: job.id, job_url: `${sb.serviceUrls!.tinybird}/v0/jobs/${job.id}` });
    await eventually(async () => ((await api.requestJson<{ status: string }>(job.job_url!)).status === 'done' ? true : undefined));
    expect(await api.deleteDatasource('events', { deleteCondition: "event = 'logout'", dryRun: true })).toEqual({ rows_to_be_deleted: 0 });
  });

  it('datasources.truncate: 205 without a body, read as {}', async () => {
    expect(await tb.datasources.truncate('events')).toEqual({});
    expect(await api.truncateDatasource('events')).toEqual({});
    expect(await tb.sql('SELECT count() AS n FROM events FORMAT JSON')).toMatchObject({ data: [{ n: 0 }] });
  });

  it('request and requestJson: any path of the Tinybird API', async () => {
    expect(await api.requestJson('/v0/pipes')).toEqual({ pipes: [expect.objectContaining({ name: 'top_events' })] });
    expect(await api.requestJson('/v0/datasources')).toMatchObject({ datasources: expect.arrayContaining([expect.objectContaining({ name: 'events' })]) });
    expect((await api.request('/v0/jobs')).status).toBe(200);
  });

  it('methods of operations the sandbox does not emulate are refused', async () => {
    // Replace from a URL is not emulated; a file upload (multipart append) and the Token API are.
    expect(await failure(tb.datasources.replace('events', { url: fileUrl }))).toMatchObject({ statusCode: 400 });
    const dir = mkdtempSync(join(tmpdir(), 'flowblocks-clients-'));
    const file = join(dir, 'rows.ndjson');
    writeFileSync(file, '{"timestamp":"2026-11-22 12:00:00","event":"f","user_id":"f1"}\n');
    try {
      expect(await tb.datasources.append('events', { file })).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const created = await api.createToken({ name: 'read_top', scope: 'PIPES:READ:top_events' });
    expect(created.token).toMatch(/^p\./);
    const jwt = await tb.tokens.createJWT({ name: 'read_top', expiresAt: Date.now() / 1000 + 3600, scopes: [{ type: 'PIPES:READ', resource: 'top_events' }] });
    expect(jwt.token).toMatch(/^eyJ/);
  });
});
