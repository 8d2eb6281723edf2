import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../src/index.js';
import { mockService } from '../../helpers/mock-service.js';
import { API, CONTACT_ID, expectLoopsHeaders, jsonOf, LIST_ID, loops } from './setup.js';

describe('loops_create_contact', () => {
  it('reports a duplicate as conflict (409), with the service message, without retrying', async () => {
    const svc = loops();
    svc.on('POST', `${API}/contacts/create`, { status: 409, body: { success: false, message: 'Email or userId is already on list' } });
    const result = await svc.run('loops_create_contact', { email: 'alex@company.com', subscribed: false });
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]).toMatchObject({ method: 'POST', path: `${API}/contacts/create`, query: {} });
    expectLoopsHeaders(svc.requests[0], { body: true });
    expect(jsonOf(svc.requests[0])).toEqual({ email: 'alex@company.com', subscribed: false });
    expect(result).toMatchObject({
      success: false,
      error: { code: 'conflict', status: 409, message: 'Email or userId is already on list', retryable: false },
    });
  });

  it('does not repeat a create after a 500, since the contact may exist by then', async () => {
    const svc = loops();
    svc.on('POST', `${API}/contacts/create`, { status: 500, body: { success: false, message: 'Server error' } }, { status: 200, body: { success: true, id: CONTACT_ID } });
    const result = await svc.run('loops_create_contact', { email: 'alex@company.com' });
    expect(svc.requests).toHaveLength(1);
    expect(jsonOf(svc.requests[0])).toEqual({ email: 'alex@company.com', subscribed: true });
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', status: 500, message: 'Server error', retryable: false } });
  });

  it('lets the named params win over a custom property of the same name', async () => {
    const svc = loops();
    svc.on('POST', `${API}/contacts/create`, { status: 200, body: { success: true, id: CONTACT_ID } });
    const result = await svc.run('loops_create_contact', {
      email: 'alex@company.com',
      firstName: 'Alex',
      customProperties: { firstName: 'Overridden', lastName: 'Rivera' },
    });
    expect(jsonOf(svc.requests[0])).toEqual({ email: 'alex@company.com', firstName: 'Alex', lastName: 'Rivera', subscribed: true });
    expect(result).toMatchObject({ success: true, output: { success: true, id: CONTACT_ID } });
  });

  it('goes to the base URL given in options.endpoints.loops', async () => {
    const sandbox = mockService('http://127.0.0.1:4100');
    sandbox.on('POST', '/loops/api/v1/contacts/create', { status: 200, body: { success: true, id: CONTACT_ID } });
    const result = await executeTool(
      'loops_create_contact',
      { apiKey: 'sandbox-key', email: 'alex@company.com' },
      { dispatcher: sandbox.agent, endpoints: { loops: 'http://127.0.0.1:4100/loops/api/v1/' }, pacer: false },
    );
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({ method: 'POST', path: '/loops/api/v1/contacts/create', query: {} });
    expect(sandbox.requests[0]!.headers.authorization).toBe('Bearer sandbox-key');
    expect(jsonOf(sandbox.requests[0])).toEqual({ email: 'alex@company.com', subscribed: true });
    expect(result).toMatchObject({ success: true, output: { success: true, id: CONTACT_ID } });
  });
});

describe('loops_update_contact', () => {
  it('sends only what was given: no subscribed unless asked, null to reset', async () => {
    const svc = loops();
    svc.on('PUT', `${API}/contacts/update`, { status: 200, body: { success: true, id: CONTACT_ID } });
    const result = await svc.run('loops_update_contact', {
      email: 'alex@company.com',
      mailingLists: { [LIST_ID]: false },
      customProperties: { planName: null },
    });
    expect(svc.requests[0]).toMatchObject({ method: 'PUT', path: `${API}/contacts/update`, query: {} });
    expectLoopsHeaders(svc.requests[0], { body: true });
    expect(jsonOf(svc.requests[0])).toEqual({ planName: null, email: 'alex@company.com', mailingLists: { [LIST_ID]: false } });
    expect(result).toMatchObject({ success: true, output: { success: true, id: CONTACT_ID } });
  });

  it('repeats an upsert after a 503, since doing it twice changes nothing', async () => {
    const svc = loops();
    svc.on('PUT', `${API}/contacts/update`, { status: 503, body: 'Service Unavailable' }, { status: 200, body: { success: true, id: CONTACT_ID } });
    const result = await svc.run('loops_update_contact', { userId: 'u1', subscribed: true });
    expect(svc.requests).toHaveLength(2);
    expect(jsonOf(svc.requests[1])).toEqual({ userId: 'u1', subscribed: true });
    expect(result).toMatchObject({ success: true, output: { id: CONTACT_ID }, meta: { attempts: 2, status: 200 } });
  });

  it('passes on the 400 for a userId-only update of an unknown contact', async () => {
    const svc = loops();
    svc.on('PUT', `${API}/contacts/update`, { status: 400, body: { success: false, message: 'An email is required to create a contact.' } });
    const result = await svc.run('loops_update_contact', { userId: 'unknown' });
    expect(jsonOf(svc.requests[0])).toEqual({ userId: 'unknown' });
    expect(result).toMatchObject({ success: false, error: { code: 'bad_request', status: 400, message: 'An email is required to create a contact.' } });
  });
});

describe('loops_find_contact', () => {
  it('finds by userId and answers an empty list when nothing matches', async () => {
    const svc = loops();
    svc.on('GET', `${API}/contacts/find`, { status: 200, body: [] });
    const result = await svc.run('loops_find_contact', { userId: 'usr 1/2' });
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: `${API}/contacts/find`, query: { userId: 'usr 1/2' } });
    expectLoopsHeaders(svc.requests[0], { body: false });
    expect(svc.requests[0]!.body).toBeUndefined();
    expect(result).toMatchObject({ success: true, output: { contacts: [] } });
  });

  it('encodes "+" in the e-mail as %2B', async () => {
    const svc = loops();
    let rawPath = '';
    svc.pool.intercept({ method: 'GET', path: (p) => p.startsWith(`${API}/contacts/find`) }).reply((opts) => {
      rawPath = opts.path;
      return { statusCode: 200, data: '[]', responseOptions: { headers: { 'content-type': 'application/json' } } };
    });
    const result = await svc.run('loops_find_contact', { email: 'alex+news@company.com' });
    expect(rawPath).toBe(`${API}/contacts/find?email=alex%2Bnews%40company.com`);
    expect(result).toMatchObject({ success: true, output: { contacts: [] } });
  });

  it('fills absent contact fields with null and gathers custom properties', async () => {
    const svc = loops();
    svc.on('GET', `${API}/contacts/find`, {
      status: 200,
      body: [{ id: CONTACT_ID, email: 'a@b.co', source: 'Signup form', subscribed: false, userGroup: 'beta', notes: 'VIP', optInStatus: 'pending' }],
    });
    const result = await svc.run('loops_find_contact', { email: 'a@b.co' });
    expect(svc.requests[0]!.query).toEqual({ email: 'a@b.co' });
    expect(result).toMatchObject({
      success: true,
      output: {
        contacts: [
          {
            id: CONTACT_ID,
            email: 'a@b.co',
            firstName: null,
            lastName: null,
            source: 'Signup form',
            subscribed: false,
            userGroup: 'beta',
            userId: null,
            mailingLists: {},
            customProperties: { notes: 'VIP' },
            optInStatus: 'pending',
          },
        ],
      },
    });
  });
});

describe('loops_delete_contact', () => {
  it('reports a missing contact as not_found', async () => {
    const svc = loops();
    svc.on('POST', `${API}/contacts/delete`, { status: 404, body: { success: false, message: 'Contact not found.' } });
    const result = await svc.run('loops_delete_contact', { email: 'gone@company.com' });
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]).toMatchObject({ method: 'POST', path: `${API}/contacts/delete`, query: {} });
    expectLoopsHeaders(svc.requests[0], { body: true });
    expect(jsonOf(svc.requests[0])).toEqual({ email: 'gone@company.com' });
    expect(result).toMatchObject({ success: false, error: { code: 'not_found', status: 404, message: 'Contact not found.', retryable: false } });
  });

  it('takes a 404 on a retry after a lost answer as done, and says so', async () => {
    const svc = loops();
    svc.on(
      'POST',
      `${API}/contacts/delete`,
      { status: 502, body: 'Bad Gateway' },
      { status: 404, body: { success: false, message: 'Contact not found.' } },
    );
    const result = await svc.run('loops_delete_contact', { email: 'gone@company.com' });
    expect(svc.requests).toHaveLength(2);
    expect(jsonOf(svc.requests[1])).toEqual({ email: 'gone@company.com' });
    expect(result).toEqual({
      success: true,
      output: { success: true, message: 'Contact deleted.' },
      meta: { status: 404, attempts: 2, durationMs: expect.any(Number), notes: [expect.stringContaining('an earlier attempt of this call most likely deleted it')] },
    });
  });
});
