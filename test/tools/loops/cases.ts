import { CONTACT_ID, LIST_ID, TEMPLATE_ID } from './setup.js';

/** One valid call of a tool: what goes out on the wire, what comes back, and what the tool makes of it. */
export interface ToolCase {
  id: string;
  params: Record<string, unknown>;
  method: string;
  path: string;
  query: Record<string, string>;
  /** The JSON body sent, or undefined for none. */
  body?: unknown;
  /** The path asked next when this one answers 401 or 404 (a fallback), if any. */
  fallbackPath?: string;
  /** Sends carry an Idempotency-Key. */
  idempotent?: boolean;
  reply: unknown;
  output: unknown;
}

const wireContact = {
  id: CONTACT_ID,
  email: 'alex@company.com',
  firstName: 'Alex',
  lastName: null,
  source: 'API',
  subscribed: true,
  userGroup: '',
  userId: 'usr_7f8e9d0c1b2a',
  mailingLists: { [LIST_ID]: true },
  optInStatus: null,
  planName: 'Pro',
  signupDate: 1767225600000,
};

export const CASES: ToolCase[] = [
  {
    id: 'loops_create_contact',
    params: {
      email: 'alex@company.com',
      firstName: 'Alex',
      userGroup: 'customers',
      mailingLists: { [LIST_ID]: true },
      customProperties: { planName: 'Pro', seats: 3, trial: false },
    },
    method: 'POST',
    path: '/contacts/create',
    query: {},
    body: {
      planName: 'Pro',
      seats: 3,
      trial: false,
      email: 'alex@company.com',
      firstName: 'Alex',
      subscribed: true,
      userGroup: 'customers',
      mailingLists: { [LIST_ID]: true },
    },
    reply: { success: true, id: CONTACT_ID },
    output: { success: true, id: CONTACT_ID },
  },
  {
    id: 'loops_update_contact',
    params: { userId: 'usr_7f8e9d0c1b2a', email: 'new@company.com', customProperties: { planName: null, seats: 5 } },
    method: 'PUT',
    path: '/contacts/update',
    query: {},
    body: { planName: null, seats: 5, email: 'new@company.com', userId: 'usr_7f8e9d0c1b2a' },
    reply: { success: true, id: CONTACT_ID },
    output: { success: true, id: CONTACT_ID },
  },
  {
    id: 'loops_find_contact',
    params: { email: 'alex+news@company.com' },
    method: 'GET',
    path: '/contacts/find',
    query: { email: 'alex+news@company.com' },
    reply: [wireContact],
    output: {
      contacts: [
        {
          id: CONTACT_ID,
          email: 'alex@company.com',
          firstName: 'Alex',
          lastName: null,
          source: 'API',
          subscribed: true,
          userGroup: '',
          userId: 'usr_7f8e9d0c1b2a',
          mailingLists: { [LIST_ID]: true },
          customProperties: { planName: 'Pro', signupDate: 1767225600000 },
          optInStatus: null,
        },
      ],
    },
  },
  {
    id: 'loops_delete_contact',
    params: { userId: 'usr_7f8e9d0c1b2a' },
    method: 'POST',
    path: '/contacts/delete',
    query: {},
    body: { userId: 'usr_7f8e9d0c1b2a' },
    reply: { success: true, message: 'Contact deleted.' },
    output: { success: true, message: 'Contact deleted.' },
  },
  {
    id: 'loops_send_transactional_email',
    params: {
      email: 'alex@company.com',
      transactionalId: TEMPLATE_ID,
      dataVariables: { name: 'Alex', count: 2, items: [{ sku: 'A-1', qty: 1 }] },
      attachments: [{ filename: 'hello.txt', contentType: 'text/plain', data: 'aGVsbG8=' }],
    },
    method: 'POST',
    path: '/transactional',
    query: {},
    body: {
      transactionalId: TEMPLATE_ID,
      email: 'alex@company.com',
      addToAudience: false,
      dataVariables: { name: 'Alex', count: 2, items: [{ sku: 'A-1', qty: 1 }] },
      attachments: [{ filename: 'hello.txt', contentType: 'text/plain', data: 'aGVsbG8=' }],
    },
    idempotent: true,
    reply: { success: true },
    output: { success: true },
  },
  {
    id: 'loops_send_event',
    params: { eventName: 'signup', email: 'alex@company.com', eventProperties: { plan: 'pro', seats: 3, paid: true }, mailingLists: { [LIST_ID]: false } },
    method: 'POST',
    path: '/events/send',
    query: {},
    body: { eventName: 'signup', email: 'alex@company.com', eventProperties: { plan: 'pro', seats: 3, paid: true }, mailingLists: { [LIST_ID]: false } },
    idempotent: true,
    reply: { success: true },
    output: { success: true },
  },
  {
    id: 'loops_list_mailing_lists',
    params: {},
    method: 'GET',
    path: '/lists',
    query: {},
    reply: [
      { id: LIST_ID, name: 'Product updates', description: 'Monthly news', isPublic: true },
      { id: 'clm2k8j4h6g0f8d6s4a2b0z8', name: 'Beta', description: null, isPublic: false },
    ],
    output: {
      mailingLists: [
        { id: LIST_ID, name: 'Product updates', description: 'Monthly news', isPublic: true },
        { id: 'clm2k8j4h6g0f8d6s4a2b0z8', name: 'Beta', description: null, isPublic: false },
      ],
    },
  },
  {
    id: 'loops_list_transactional_emails',
    params: { perPage: '10', cursor: 'clyo0q4wo01p59fsecyxqsh38' },
    method: 'GET',
    path: '/transactional-emails',
    fallbackPath: '/transactional',
    query: { perPage: '10', cursor: 'clyo0q4wo01p59fsecyxqsh38' },
    reply: {
      pagination: { totalResults: 11, returnedResults: 2, perPage: 10, totalPages: 2, nextCursor: null, nextPage: null },
      data: [
        {
          id: TEMPLATE_ID,
          name: 'Sign up confirmation',
          draftEmailMessageId: null,
          publishedEmailMessageId: 'cle5f7g9h1i3j5k7l9m1n3p5',
          transactionalGroupId: null,
          createdAt: '2025-06-20T07:47:39.370Z',
          updatedAt: '2025-06-29T07:47:39.370Z',
          dataVariables: ['confirmationUrl'],
        },
        {
          id: 'clz0draft0000000000000000',
          name: 'Welcome (draft)',
          draftEmailMessageId: 'cle5f7g9h1i3j5k7l9m1n3p6',
          publishedEmailMessageId: null,
          transactionalGroupId: null,
          createdAt: '2025-07-01T08:00:00.000Z',
          updatedAt: '2025-07-01T08:00:00.000Z',
          dataVariables: [],
        },
      ],
    },
    output: {
      transactionalEmails: [
        { id: TEMPLATE_ID, name: 'Sign up confirmation', lastUpdated: '2025-06-29T07:47:39.370Z', dataVariables: ['confirmationUrl'], published: true, createdAt: '2025-06-20T07:47:39.370Z' },
        { id: 'clz0draft0000000000000000', name: 'Welcome (draft)', lastUpdated: '2025-07-01T08:00:00.000Z', dataVariables: [], published: false, createdAt: '2025-07-01T08:00:00.000Z' },
      ],
      pagination: { totalResults: 11, returnedResults: 2, perPage: 10, totalPages: 2, nextCursor: null, nextPage: null },
      endpoint: '/transactional-emails',
    },
  },
  {
    id: 'loops_get_transactional_email',
    params: { transactionalId: TEMPLATE_ID },
    method: 'GET',
    path: `/transactional-emails/${TEMPLATE_ID}`,
    query: {},
    reply: {
      id: TEMPLATE_ID,
      name: 'Sign up confirmation',
      draftEmailMessageId: null,
      publishedEmailMessageId: 'cle5f7g9h1i3j5k7l9m1n3p5',
      transactionalGroupId: null,
      createdAt: '2025-06-20T07:47:39.370Z',
      updatedAt: '2025-06-29T07:47:39.370Z',
      dataVariables: ['confirmationUrl'],
    },
    output: {
      id: TEMPLATE_ID,
      name: 'Sign up confirmation',
      draftEmailMessageId: null,
      publishedEmailMessageId: 'cle5f7g9h1i3j5k7l9m1n3p5',
      transactionalGroupId: null,
      createdAt: '2025-06-20T07:47:39.370Z',
      updatedAt: '2025-06-29T07:47:39.370Z',
      dataVariables: ['confirmationUrl'],
      published: true,
    },
  },
  {
    id: 'loops_list_event_patterns',
    params: { perPage: '10' },
    method: 'GET',
    path: '/event-patterns',
    query: { perPage: '10' },
    reply: {
      pagination: { totalResults: 1, returnedResults: 1, perPage: 10, totalPages: 1, nextCursor: null, nextPage: null },
      data: [{ id: 'clep0000000000000000000001', eventName: 'planUpgraded', incomingWebhookPlatform: null }],
    },
    output: {
      eventPatterns: [{ id: 'clep0000000000000000000001', eventName: 'planUpgraded', incomingWebhookPlatform: null }],
      pagination: { totalResults: 1, returnedResults: 1, perPage: 10, totalPages: 1, nextCursor: null, nextPage: null },
    },
  },
  {
    id: 'loops_get_event_pattern',
    params: { eventName: 'planUpgraded' },
    method: 'GET',
    path: '/event-patterns/by-name/planUpgraded',
    query: {},
    reply: { id: 'clep0000000000000000000001', eventName: 'planUpgraded', incomingWebhookPlatform: null, eventProperties: [{ name: 'seats', type: 'number' }] },
    output: { id: 'clep0000000000000000000001', eventName: 'planUpgraded', incomingWebhookPlatform: null, eventProperties: [{ name: 'seats', type: 'number' }] },
  },
  {
    id: 'loops_list_dedicated_sending_ips',
    params: {},
    method: 'GET',
    path: '/dedicated-sending-ips',
    query: {},
    reply: ['52.21.45.123', '52.21.45.124'],
    output: { ips: ['52.21.45.123', '52.21.45.124'] },
  },
  {
    id: 'loops_create_contact_property',
    params: { name: 'planName', type: 'string' },
    method: 'POST',
    path: '/contacts/properties',
    query: {},
    body: { name: 'planName', type: 'string' },
    reply: { success: true },
    output: { success: true },
  },
  {
    id: 'loops_list_contact_properties',
    params: { list: 'custom' },
    method: 'GET',
    path: '/contacts/properties',
    query: { list: 'custom' },
    reply: [{ key: 'planName', label: 'Plan name', type: 'string' }],
    output: { properties: [{ key: 'planName', label: 'Plan name', type: 'string' }] },
  },
  {
    id: 'loops_check_contact_suppression',
    params: { email: 'alex@company.com' },
    method: 'GET',
    path: '/contacts/suppression',
    query: { email: 'alex@company.com' },
    reply: { contact: { id: CONTACT_ID, email: 'alex@company.com', userId: null }, isSuppressed: true, removalQuota: { limit: 5, remaining: 4 } },
    output: { contact: { id: CONTACT_ID, email: 'alex@company.com', userId: null }, isSuppressed: true, removalQuota: { limit: 5, remaining: 4 } },
  },
  {
    id: 'loops_remove_contact_suppression',
    params: { userId: 'usr_7f8e9d0c1b2a' },
    method: 'DELETE',
    path: '/contacts/suppression',
    query: { userId: 'usr_7f8e9d0c1b2a' },
    reply: { success: true, message: 'Email removed from suppression list.', removalQuota: { limit: 5, remaining: 3 } },
    output: { success: true, message: 'Email removed from suppression list.', removalQuota: { limit: 5, remaining: 3 } },
  },
  {
    id: 'loops_test_api_key',
    params: {},
    method: 'GET',
    path: '/api-key',
    query: {},
    reply: { success: true, teamName: 'Company name' },
    output: { success: true, teamName: 'Company name' },
  },
];
