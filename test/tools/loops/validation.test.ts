import { describe, expect, it } from 'vitest';
import { API, API_KEY, jsonOf, loops, TEMPLATE_ID } from './setup.js';

const send = { email: 'a@b.co', transactionalId: TEMPLATE_ID };
const file = { filename: 'a.pdf', contentType: 'application/pdf', data: 'JVBERi0xLjQK' };

describe('Loops params are checked before any request, naming the field', () => {
  it.each([
    ['create_contact: email (an e-mail address is required)', 'loops_create_contact', {}, 'email', 'an e-mail address is required'],
    ['create_contact: email (not a valid e-mail address)', 'loops_create_contact', { email: 'not-an-address' }, 'email', 'not a valid e-mail address'],
    ['create_contact: firstName (at most 500 characters)', 'loops_create_contact', { email: 'a@b.co', firstName: 'x'.repeat(499) }, 'firstName', 'at most 500 characters'],
    // 300 quotes are 600 characters once JSON-escaped.
    ['create_contact: source (at most 500 characters)', 'loops_create_contact', { email: 'a@b.co', source: '"'.repeat(300) }, 'source', 'at most 500 characters'],
    ['create_contact: customProperties.plan_name (camelCase)', 'loops_create_contact', { email: 'a@b.co', customProperties: { plan_name: 'x' } }, 'customProperties.plan_name', 'camelCase'],
    ['create_contact: customProperties.PlanName (camelCase)', 'loops_create_contact', { email: 'a@b.co', customProperties: { PlanName: 'x' } }, 'customProperties.PlanName', 'camelCase'],
    ['create_contact: customProperties.teamId (reserved by Loops)', 'loops_create_contact', { email: 'a@b.co', customProperties: { teamId: 'x' } }, 'customProperties.teamId', 'reserved by Loops'],
    ['create_contact: customProperties.email (has its own param)', 'loops_create_contact', { email: 'a@b.co', customProperties: { email: 'b@c.co' } }, 'customProperties.email', 'has its own param'],
    ['create_contact: customProperties.planName (no null on create)', 'loops_create_contact', { email: 'a@b.co', customProperties: { planName: null } }, 'customProperties.planName', 'a value is a string of at most 500 characters, a number or a boolean'],
    ['create_contact: customProperties.plan (no objects)', 'loops_create_contact', { email: 'a@b.co', customProperties: { plan: { tier: 1 } } }, 'customProperties.plan', 'a value is a string'],
    ['create_contact: customProperties.note (at most 500 characters)', 'loops_create_contact', { email: 'a@b.co', customProperties: { note: 'x'.repeat(600) } }, 'customProperties.note', 'at most 500 characters'],
    [`create_contact: mailingLists.${TEMPLATE_ID}`, 'loops_create_contact', { email: 'a@b.co', mailingLists: { [TEMPLATE_ID]: 'yes' } }, `mailingLists.${TEMPLATE_ID}`, ''],
    ['update_contact: email (give email or userId)', 'loops_update_contact', { firstName: 'Alex' }, 'email', 'give email or userId'],
    ['update_contact: customProperties.updatedAt (reserved by Loops)', 'loops_update_contact', { userId: 'u', customProperties: { updatedAt: null } }, 'customProperties.updatedAt', 'reserved by Loops'],
    ['find_contact: email (give email or userId)', 'loops_find_contact', {}, 'email', 'give email or userId'],
    ['find_contact: userId (not both)', 'loops_find_contact', { email: 'a@b.co', userId: 'u' }, 'userId', 'not both'],
    ['delete_contact: userId (not both)', 'loops_delete_contact', { email: 'a@b.co', userId: 'u' }, 'userId', 'not both'],
    ['check_contact_suppression: userId (not both)', 'loops_check_contact_suppression', { email: 'a@b.co', userId: 'u' }, 'userId', 'not both'],
    ['remove_contact_suppression: email (give email or userId)', 'loops_remove_contact_suppression', {}, 'email', 'give email or userId'],
    ['send_event: eventName', 'loops_send_event', { email: 'a@b.co' }, 'eventName', ''],
    ['send_event: eventName', 'loops_send_event', { eventName: '   ', email: 'a@b.co' }, 'eventName', ''],
    ['send_event: email (give email or userId)', 'loops_send_event', { eventName: 'signup' }, 'email', 'give email or userId'],
    ['send_event: eventProperties. plan  (appears twice)', 'loops_send_event', { eventName: 'signup', userId: 'u', eventProperties: { plan: 'a', ' plan ': 'b' } }, 'eventProperties. plan ', 'appears twice'],
    ['send_event: eventProperties.plan', 'loops_send_event', { eventName: 'signup', userId: 'u', eventProperties: { plan: null } }, 'eventProperties.plan', 'a value is a string'],
    ['send_transactional_email: transactionalId', 'loops_send_transactional_email', { email: 'a@b.co' }, 'transactionalId', ''],
    ['send_transactional_email: dataVariables.first name (letters, digits, underscores and dashes)', 'loops_send_transactional_email', { ...send, dataVariables: { 'first name': 'A' } }, 'dataVariables.first name', 'letters, digits, underscores and dashes'],
    ['send_transactional_email: dataVariables.name (null does not work)', 'loops_send_transactional_email', { ...send, dataVariables: { name: null } }, 'dataVariables.name', 'null does not work'],
    ['send_transactional_email: dataVariables.payload (over 500 characters, not null)', 'loops_send_transactional_email', { ...send, dataVariables: { payload: 'x'.repeat(499) } }, 'dataVariables.payload', 'a string data variable is at most 500 characters once JSON-encoded (the service\'s limit for every value); this one is 501'],
    ['send_transactional_email: dataVariables.rows.0.a (over 500 characters)', 'loops_send_transactional_email', { ...send, dataVariables: { rows: [{ a: 'x'.repeat(600) }] } }, 'dataVariables.rows', 'numbers or strings of at most 500 characters'],
    ['send_transactional_email: dataVariables.rows (up to 100)', 'loops_send_transactional_email', { ...send, dataVariables: { rows: Array.from({ length: 101 }, () => ({ a: 1 })) } }, 'dataVariables.rows', 'up to 100'],
    ['send_transactional_email: attachments.0.data (base64)', 'loops_send_transactional_email', { ...send, attachments: [{ ...file, data: 'not base64!' }] }, 'attachments.0.data', 'base64'],
    ['send_transactional_email: attachments.0.data (no line breaks)', 'loops_send_transactional_email', { ...send, attachments: [{ ...file, data: 'JVBE\nRi0x' }] }, 'attachments.0.data', 'no line breaks'],
    ['send_transactional_email: attachments.0.contentType (MIME type)', 'loops_send_transactional_email', { ...send, attachments: [{ ...file, contentType: 'pdf' }] }, 'attachments.0.contentType', 'MIME type'],
    ['send_transactional_email: attachments.0.filename', 'loops_send_transactional_email', { ...send, attachments: [{ ...file, filename: '' }] }, 'attachments.0.filename', ''],
    ['send_transactional_email: attachments (under 4 MB)', 'loops_send_transactional_email', { ...send, attachments: [{ ...file, data: 'A'.repeat(4 * 1024 * 1024) }] }, 'attachments', 'under 4 MB'],
    ['list_transactional_emails: perPage (10 to 50)', 'loops_list_transactional_emails', { perPage: '9' }, 'perPage', '10 to 50'],
    ['list_transactional_emails: perPage (10 to 50)', 'loops_list_transactional_emails', { perPage: 51 }, 'perPage', '10 to 50'],
    ['list_transactional_emails: perPage (10 to 50)', 'loops_list_transactional_emails', { perPage: 'twenty' }, 'perPage', '10 to 50'],
    ['create_contact_property: name (camelCase)', 'loops_create_contact_property', { name: 'PlanName', type: 'string' }, 'name', 'camelCase'],
    ['create_contact_property: name (camelCase)', 'loops_create_contact_property', { name: 'plan_name', type: 'string' }, 'name', 'camelCase'],
    ['create_contact_property: name (reserved by Loops)', 'loops_create_contact_property', { name: 'listId', type: 'string' }, 'name', 'reserved by Loops'],
    ['create_contact_property: name (default contact property)', 'loops_create_contact_property', { name: 'firstName', type: 'string' }, 'name', 'default contact property'],
    ['create_contact_property: type', 'loops_create_contact_property', { name: 'planName', type: 'text' }, 'type', ''],
    ['list_contact_properties: list', 'loops_list_contact_properties', { list: 'mine' }, 'list', ''],
    ['test_api_key: apiKey', 'loops_test_api_key', { apiKey: '' }, 'apiKey', ''],
  ])('%s', async (_label, id, params, path, message) => {
    const svc = loops();
    const result = await svc.run(id, params);
    expect(svc.requests).toHaveLength(0);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('invalid_params');
    expect(result.error.issues).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(result.meta.attempts).toBe(0);
  });

  it('refuses a key with spaces around it and never repeats the key', async () => {
    const svc = loops();
    const result = await svc.run('loops_test_api_key', { apiKey: ` ${API_KEY}\n` });
    expect(svc.requests).toHaveLength(0);
    expect(result).toMatchObject({ success: false, error: { code: 'invalid_params', issues: [{ path: 'apiKey', message: expect.stringContaining('spaces or line breaks') }] } });
    expect(JSON.stringify(result)).not.toContain(API_KEY);
  });

  it('accepts values right at the limits, and a perPage given as a number', async () => {
    const svc = loops();
    svc.on('PUT', `${API}/contacts/update`, { status: 200, body: { success: true, id: 'c1' } });
    svc.on('GET', `${API}/transactional-emails`, {
      status: 200,
      body: { pagination: { totalResults: 0, returnedResults: 0, perPage: 50, totalPages: 0, nextCursor: null, nextPage: null }, data: [] },
    });
    const update = await svc.run('loops_update_contact', {
      userId: 'u',
      firstName: 'x'.repeat(498),
      customProperties: { planName: 'y'.repeat(498), startDate: '2026-01-01', renewsAt: 1767225600000 },
    });
    const list = await svc.run('loops_list_transactional_emails', { perPage: 50 });
    expect(update).toMatchObject({ success: true });
    expect(jsonOf(svc.requests[0])).toEqual({
      planName: 'y'.repeat(498),
      startDate: '2026-01-01',
      renewsAt: 1767225600000,
      userId: 'u',
      firstName: 'x'.repeat(498),
    });
    expect(list).toMatchObject({ success: true, output: { transactionalEmails: [] } });
    expect(svc.requests[1]).toMatchObject({ method: 'GET', path: `${API}/transactional-emails`, query: { perPage: '50' } });
  });
});
