import { z } from 'zod';
import { pathIdParam, pathSegment } from '../../src/kit.js';
import { apiKeyParam, connection } from './connection.js';

/** `GET /transactional-emails/{transactionalId}` (OpenAPI 1.21.6 `getTransactionalEmail`, `TransactionalResource`). */
const transactionalResource = z.looseObject({
  id: z.string(),
  name: z.string(),
  draftEmailMessageId: z.string().nullable().describe('Id of the draft e-mail message, or null'),
  publishedEmailMessageId: z.string().nullable().describe('Id of the published e-mail message, or null when never published'),
  transactionalGroupId: z.string().nullable(),
  createdAt: z.string().describe('ISO 8601 creation time'),
  updatedAt: z.string().optional().describe('ISO 8601 time of the last change'),
  dataVariables: z.array(z.string()).default([]).describe('Data variables the published e-mail uses: what a send must (or may) pass'),
});

export default connection.defineTool({
  id: 'loops_get_transactional_email',
  resource: 'Transactional Email',
  name: 'Get transactional email',
  description:
    'Read one Loops transactional e-mail template by id: whether it is published, and the names of the data variables its published version uses, so a workflow can check what loops_send_transactional_email needs before sending. Needs a team with the content API (401 otherwise).',
  scopes: [],
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params: z.object({ apiKey: apiKeyParam, transactionalId: pathIdParam('Transactional template id') }),
  output: transactionalResource.extend({ published: z.boolean().describe('True when a published version exists and can be sent') }),
  request: (p) => ({ method: 'GET', path: `/transactional-emails/${pathSegment(p.transactionalId)}` }),
  wire: transactionalResource,
  response: ({ body }) => ({ ...body, published: body.publishedEmailMessageId !== null }),
});
