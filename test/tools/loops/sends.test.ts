import { describe, expect, it } from 'vitest';
import { API, expectLoopsHeaders, jsonOf, loops, TEMPLATE_ID } from './setup.js';

const SENDS = [
  { id: 'loops_send_transactional_email', path: '/transactional', params: { email: 'alex@company.com', transactionalId: TEMPLATE_ID } },
  { id: 'loops_send_event', path: '/events/send', params: { eventName: 'signup', userId: 'usr_1' } },
];
const USED = { success: false, message: 'Idempotency key already used with a different request body.' };

describe.each(SENDS)('$id idempotency', ({ id, path, params }) => {
  it('sends the caller\'s key as Idempotency-Key', async () => {
    const svc = loops();
    svc.on('POST', `${API}${path}`, { status: 200, body: { success: true } });
    const result = await svc.run(id, params, { idempotencyKey: 'order-1234-receipt' });
    expect(svc.requests[0]).toMatchObject({ method: 'POST', path: `${API}${path}`, query: {} });
    expectLoopsHeaders(svc.requests[0], { body: true });
    expect(svc.requests[0]!.headers['idempotency-key']).toBe('order-1234-receipt');
    expect(result).toMatchObject({ success: true, output: { success: true }, meta: { attempts: 1 } });
  });

  it('makes one key per call and keeps it across the retries of a 500', async () => {
    const svc = loops();
    svc.on('POST', `${API}${path}`, { status: 500, body: { success: false, message: 'Server error' } }, { status: 200, body: { success: true } });
    svc.on('POST', `${API}${path}`, { status: 200, body: { success: true } });
    const first = await svc.run(id, params);
    const second = await svc.run(id, params);
    const keys = svc.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(jsonOf(svc.requests[1])).toEqual(jsonOf(svc.requests[0]));
    expect(first).toMatchObject({ success: true, meta: { attempts: 2 } });
    expect(second).toMatchObject({ success: true, meta: { attempts: 1 } });
  });

  it('reports a reused key on the first attempt as conflict: nothing was sent now', async () => {
    const svc = loops();
    svc.on('POST', `${API}${path}`, { status: 409, body: USED });
    const result = await svc.run(id, params, { idempotencyKey: 'used-yesterday' });
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]!.headers['idempotency-key']).toBe('used-yesterday');
    expect(result).toMatchObject({ success: false, error: { code: 'conflict', status: 409, message: USED.message, retryable: false } });
  });

  it('takes a 409 for its own key on a retry as delivered by the earlier attempt, and says so in meta', async () => {
    const svc = loops();
    svc.on('POST', `${API}${path}`, { status: 504, body: '<html><body>504 Gateway Time-out</body></html>', headers: { 'content-type': 'text/html' } }, { status: 409, body: USED });
    const result = await svc.run(id, params);
    expect(svc.requests).toHaveLength(2);
    expect(svc.requests[1]!.headers['idempotency-key']).toBe(svc.requests[0]!.headers['idempotency-key']);
    expect(result).toEqual({
      success: true,
      output: { success: true },
      meta: { status: 409, attempts: 2, durationMs: expect.any(Number), notes: [expect.stringContaining('an earlier attempt was delivered')] },
    });
  });

  it('takes the same view after a dropped connection', async () => {
    const svc = loops();
    svc.failConnection('POST', `${API}${path}`);
    svc.on('POST', `${API}${path}`, { status: 409, body: USED });
    const result = await svc.run(id, params);
    // The dropped attempt never reached the mock's recorder; the retry did, with a key.
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(result).toMatchObject({ success: true, output: { success: true }, meta: { attempts: 2, notes: [expect.any(String)] } });
  });

  it('refuses a key over 100 characters before sending', async () => {
    const svc = loops();
    const result = await svc.run(id, params, { idempotencyKey: 'k'.repeat(101) });
    expect(svc.requests).toHaveLength(0);
    expect(result).toMatchObject({
      success: false,
      error: { code: 'invalid_params', issues: [{ path: 'idempotencyKey', message: expect.stringContaining('1 to 100 characters') }] },
      meta: { attempts: 0 },
    });
  });
});

describe('loops_send_transactional_email failures', () => {
  it('reports an unknown template as not_found with the message from error', async () => {
    const svc = loops();
    svc.on('POST', `${API}/transactional`, {
      status: 404,
      body: { success: false, message: 'Transactional email not found.', error: { path: 'transactionalId', message: 'Transactional email not found.' } },
    });
    const result = await svc.run('loops_send_transactional_email', { email: 'a@b.co', transactionalId: 'nope', addToAudience: true });
    expect(jsonOf(svc.requests[0])).toEqual({ transactionalId: 'nope', email: 'a@b.co', addToAudience: true });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', status: 404, message: 'Transactional email not found.' } });
  });

  it.each([
    [{ success: false, message: 'Transactional email is not published.' }, 'Transactional email is not published.'],
    [{ success: false, message: 'Invalid attachment.', path: 'attachments' }, 'Invalid attachment.'],
    [
      { success: false, message: 'Missing required data variable(s): confirmationUrl', error: { path: 'dataVariables', message: 'Missing required data variable(s): confirmationUrl' }, transactionalId: TEMPLATE_ID },
      'Missing required data variable(s): confirmationUrl',
    ],
    [{ success: false, message: 'Attachments are not enabled for this team.', error: { path: 'attachments', reason: 'disabled' } }, 'Attachments are not enabled for this team.'],
  ])('keeps the message of each documented 400 shape: %j', async (body, message) => {
    const svc = loops();
    svc.on('POST', `${API}/transactional`, { status: 400, body });
    const result = await svc.run('loops_send_transactional_email', { email: 'a@b.co', transactionalId: TEMPLATE_ID });
    expect(svc.requests).toHaveLength(1);
    expect(jsonOf(svc.requests[0])).toEqual({ transactionalId: TEMPLATE_ID, email: 'a@b.co', addToAudience: false });
    expect(result).toMatchObject({ success: false, error: { code: 'bad_request', status: 400, message, retryable: false } });
  });
});
