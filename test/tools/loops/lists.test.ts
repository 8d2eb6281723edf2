import { describe, expect, it } from 'vitest';
import { listTransactionalEmails, paginate } from '../../../tools/loops/index.js';
import { API, API_KEY, expectLoopsHeaders, fast, loops, TEMPLATE_ID } from './setup.js';

/** A page of `GET /transactional-emails` (OpenAPI 1.21.6 `ListTransactionalsResourceResponse`). */
function page(ids: string[], nextCursor: string | null, path = '/transactional-emails') {
  return {
    pagination: {
      totalResults: 5,
      returnedResults: ids.length,
      perPage: 2,
      totalPages: 3,
      nextCursor,
      nextPage: nextCursor ? `https://app.loops.so/api/v1${path}?cursor=${nextCursor}&perPage=2` : null,
    },
    data: ids.map((id) => ({
      id,
      name: `Template ${id}`,
      draftEmailMessageId: null,
      publishedEmailMessageId: `em_${id}`,
      transactionalGroupId: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T03:04:05.000Z',
      dataVariables: [],
    })),
  };
}

/** A page of the deprecated `GET /transactional` (published templates, `lastUpdated`). */
function olderPage(ids: string[], nextCursor: string | null) {
  return { ...page([], nextCursor, '/transactional'), data: ids.map((id) => ({ id, name: `Template ${id}`, lastUpdated: '2026-01-02T03:04:05.000Z', dataVariables: ['x'] })) };
}

describe('loops_list_transactional_emails', () => {
  it('asks /transactional-emails for 20 per page by default and returns the page with its cursor', async () => {
    const svc = loops();
    svc.on('GET', `${API}/transactional-emails`, { status: 200, body: page([TEMPLATE_ID], 'cur_2') });
    const result = await svc.run('loops_list_transactional_emails', {});
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: `${API}/transactional-emails`, query: { perPage: '20' }, body: undefined });
    expectLoopsHeaders(svc.requests[0], { body: false });
    expect(result).toMatchObject({
      success: true,
      output: {
        transactionalEmails: [{ id: TEMPLATE_ID, name: `Template ${TEMPLATE_ID}`, lastUpdated: '2026-01-02T03:04:05.000Z', dataVariables: [], published: true }],
        pagination: { nextCursor: 'cur_2', nextPage: expect.stringContaining('cursor=cur_2'), totalPages: 3 },
        endpoint: '/transactional-emails',
      },
    });
  });

  it.each([404, 401])('falls back to the deprecated /transactional when the newer endpoint answers %i', async (status) => {
    const svc = loops();
    svc.on('GET', `${API}/transactional-emails`, { status, body: { message: status === 404 ? 'Not found' : 'Content API not enabled for this team' } });
    svc.on('GET', `${API}/transactional`, { status: 200, body: olderPage(['t1'], null) });
    const result = await svc.run('loops_list_transactional_emails', { perPage: '10', cursor: 'cur_2' });
    expect(svc.requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', `${API}/transactional-emails`, { perPage: '10', cursor: 'cur_2' }],
      ['GET', `${API}/transactional`, { perPage: '10', cursor: 'cur_2' }],
    ]);
    expectLoopsHeaders(svc.requests[1], { body: false });
    expect(result).toMatchObject({
      success: true,
      output: { transactionalEmails: [{ id: 't1', lastUpdated: '2026-01-02T03:04:05.000Z', dataVariables: ['x'], published: true }], endpoint: '/transactional' },
      meta: { notes: [expect.stringContaining(`answered ${status}`)] },
    });
  });

  it('does not fall back on other failures', async () => {
    const svc = loops();
    svc.on('GET', `${API}/transactional-emails`, { status: 403, body: { message: 'Forbidden' } });
    const result = await svc.run('loops_list_transactional_emails', {});
    expect(svc.requests).toHaveLength(1);
    expect(result).toMatchObject({ success: false, error: { code: 'forbidden', status: 403 } });
  });

  it('walks every page with paginate, following nextCursor until it is null', async () => {
    const svc = loops();
    svc.on(
      'GET',
      `${API}/transactional-emails`,
      { status: 200, body: page(['t1', 't2'], 'cur_2') },
      { status: 429, body: { success: false, message: 'Rate limit exceeded' }, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' } },
      { status: 200, body: page(['t3', 't4'], 'cur_3') },
      { status: 200, body: page(['t5'], null) },
    );
    const ids: string[] = [];
    for await (const template of paginate<{ id: string }>(listTransactionalEmails, { apiKey: API_KEY, perPage: 10 }, { dispatcher: svc.agent, pacer: svc.pacer, ...fast })) {
      ids.push(template.id);
    }
    expect(ids).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(svc.requests.map((r) => r.query)).toEqual([
      { perPage: '10' },
      { perPage: '10', cursor: 'cur_2' },
      { perPage: '10', cursor: 'cur_2' },
      { perPage: '10', cursor: 'cur_3' },
    ]);
    for (const req of svc.requests) expect(req).toMatchObject({ method: 'GET', path: `${API}/transactional-emails` });
  });

  it('reads a 400 without the success key (this endpoint\'s own error shape)', async () => {
    const svc = loops();
    svc.on('GET', `${API}/transactional-emails`, { status: 400, body: { message: 'perPage must be between 10 and 50.' } });
    const result = await svc.run('loops_list_transactional_emails', { perPage: '50', cursor: 'stale' });
    expect(svc.requests[0]!.query).toEqual({ perPage: '50', cursor: 'stale' });
    expect(result).toMatchObject({ success: false, error: { code: 'bad_request', status: 400, message: 'perPage must be between 10 and 50.' } });
  });
});

describe('loops_get_transactional_email', () => {
  it('GETs /transactional-emails/<id> and reports whether it can be sent and what it needs', async () => {
    const svc = loops();
    svc.on('GET', `${API}/transactional-emails/${TEMPLATE_ID}`, { status: 200, body: page([TEMPLATE_ID], null).data[0] });
    const result = await svc.run('loops_get_transactional_email', { transactionalId: TEMPLATE_ID });
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: `${API}/transactional-emails/${TEMPLATE_ID}`, query: {}, body: undefined });
    expectLoopsHeaders(svc.requests[0], { body: false });
    expect(result).toMatchObject({ success: true, output: { id: TEMPLATE_ID, published: true, dataVariables: [] } });
  });

  it('reads the 404 `{message}` as not_found, and refuses a dot-segment id before sending', async () => {
    const svc = loops();
    svc.on('GET', `${API}/transactional-emails/nope`, { status: 404, body: { message: 'Transactional email not found.' } });
    expect(await svc.run('loops_get_transactional_email', { transactionalId: 'nope' })).toMatchObject({ success: false, error: { code: 'not_found', message: 'Transactional email not found.' } });
    expect(await svc.run('loops_get_transactional_email', { transactionalId: '..' })).toMatchObject({ success: false, error: { code: 'invalid_params' } });
    expect(svc.requests).toHaveLength(1);
  });
});

describe('loops_list_contact_properties', () => {
  it('asks for all properties by default and keeps their types', async () => {
    const svc = loops();
    svc.on('GET', `${API}/contacts/properties`, {
      status: 200,
      body: [
        { key: 'firstName', label: 'First Name', type: 'string' },
        { key: 'subscribed', label: 'Subscribed', type: 'boolean' },
        { key: 'createdAt', label: 'Created At', type: 'date' },
      ],
    });
    const result = await svc.run('loops_list_contact_properties', {});
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: `${API}/contacts/properties`, query: { list: 'all' } });
    expectLoopsHeaders(svc.requests[0], { body: false });
    expect(result).toMatchObject({
      success: true,
      output: {
        properties: [
          { key: 'firstName', label: 'First Name', type: 'string' },
          { key: 'subscribed', label: 'Subscribed', type: 'boolean' },
          { key: 'createdAt', label: 'Created At', type: 'date' },
        ],
      },
    });
  });
});

describe('loops_create_contact_property', () => {
  it('passes on "Property already exists." as bad_request', async () => {
    const svc = loops();
    svc.on('POST', `${API}/contacts/properties`, { status: 400, body: { success: false, message: 'Property already exists.' } });
    const result = await svc.run('loops_create_contact_property', { name: 'favoriteColor', type: 'string' });
    expect(svc.requests).toHaveLength(1);
    expect(JSON.parse(String(svc.requests[0]!.body))).toEqual({ name: 'favoriteColor', type: 'string' });
    expect(result).toMatchObject({ success: false, error: { code: 'bad_request', status: 400, message: 'Property already exists.' } });
  });
});

describe('loops_test_api_key', () => {
  it('accepts the older body without teamName', async () => {
    const svc = loops();
    svc.on('GET', `${API}/api-key`, { status: 200, body: { success: true } });
    const result = await svc.run('loops_test_api_key', {});
    expect(svc.requests[0]).toMatchObject({ method: 'GET', path: `${API}/api-key`, query: {} });
    expectLoopsHeaders(svc.requests[0], { body: false });
    expect(result).toMatchObject({ success: true, output: { success: true } });
    if (result.success) expect(result.output).not.toHaveProperty('teamName');
  });
});

describe('suppression', () => {
  it('reports an unknown contact as not_found on check and on remove', async () => {
    const svc = loops();
    svc.on('GET', `${API}/contacts/suppression`, { status: 404, body: { success: false, message: 'This contact was not found.' } });
    svc.on('DELETE', `${API}/contacts/suppression`, { status: 404, body: { success: false, message: 'This contact was not found.' } });
    const check = await svc.run('loops_check_contact_suppression', { userId: 'ghost' });
    const remove = await svc.run('loops_remove_contact_suppression', { email: 'ghost@company.com' });
    expect(svc.requests.map((r) => [r.method, r.path, r.query, r.body])).toEqual([
      ['GET', `${API}/contacts/suppression`, { userId: 'ghost' }, undefined],
      ['DELETE', `${API}/contacts/suppression`, { email: 'ghost@company.com' }, undefined],
    ]);
    for (const result of [check, remove]) {
      expect(result).toMatchObject({ success: false, error: { code: 'not_found', status: 404, message: 'This contact was not found.' } });
    }
  });

  it('does not repeat a removal after a 500 (it spends quota)', async () => {
    const svc = loops();
    svc.on('DELETE', `${API}/contacts/suppression`, { status: 500, body: { success: false, message: 'Server error' } });
    const result = await svc.run('loops_remove_contact_suppression', { email: 'a@company.com' });
    expect(svc.requests).toHaveLength(1);
    expect(result).toMatchObject({ success: false, error: { code: 'upstream_error', retryable: false } });
  });
});
