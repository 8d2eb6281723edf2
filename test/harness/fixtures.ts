import { z } from 'zod';
import { defineTool } from '../../src/harness/define/define-tool.js';
import { secretParam, userOnlyParam } from '../../src/harness/define/fields.js';

/** Small tools that exercise the harness without any service's rules. */
export const ORIGIN = 'https://api.example.test';
export const SECRET = 'sk_live_very-secret-value';

const base = {
  service: 'example',
  output: z.looseObject({ ok: z.boolean() }),
  response: (res: { body: unknown }) => res.body as { ok: boolean },
};

const params = z.object({
  base_url: userOnlyParam(z.url()),
  apiKey: secretParam(z.string().min(1)),
  name: z.string().min(2),
  count: z.number().int().positive().optional(),
  tags: z.array(z.string()).optional(),
});

/** Everything of the read tool but its output, for tests that read bodies their own way. */
export const readParts = {
  name: 'Read',
  description: 'A read-only call',
  scopes: [],
  service: 'example',
  annotations: { readOnly: true, destructive: false, idempotent: true },
  params,
  request: (p: z.output<typeof params>) => ({
    method: 'GET' as const,
    url: `${p.base_url}/items`,
    query: { name: p.name, count: p.count, tag: p.tags },
    headers: { authorization: `Bearer ${p.apiKey}` },
  }),
};

export const readTool = defineTool({ ...base, ...readParts, id: 'example_read' });

/** The read tool returning whatever JSON object the service sent, to see what comes back of it. */
export const echoTool = defineTool({
  ...readParts,
  id: 'example_echo',
  output: z.looseObject({}),
  response: (res) => res.body as Record<string, unknown>,
});

export const writeTool = defineTool({
  ...base,
  id: 'example_write',
  name: 'Write',
  description: 'A call that is not safe to repeat',
  scopes: [],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params,
  request: (p) => ({
    method: 'POST',
    url: `${p.base_url}/items`,
    headers: { authorization: `Bearer ${p.apiKey}` },
    body: { json: { name: p.name } },
  }),
});

/** Like writeTool, but the request carries the call's idempotency key. */
export const keyedWriteTool = defineTool({
  ...base,
  ...readParts,
  annotations: writeTool.annotations,
  id: 'example_keyed_write',
  request: (p, options) => ({ ...writeTool.request(p, options), idempotencyKey: options.idempotencyKey }),
});

export const validParams = { base_url: ORIGIN, apiKey: SECRET, name: 'widget' };

/** A read paced per `key` (sent as `x-pacing-key` too, to check what went out) at `limit` per `windowMs`. */
export function pacedExampleTool(origin: string, pacing: { limit: number; windowMs: number }) {
  return defineTool({
    id: 'example_paced',
    name: 'Paced',
    description: 'A call paced per key',
    scopes: [],
    service: 'example',
    annotations: { readOnly: true, destructive: false, idempotent: true },
    params: z.object({ key: z.string() }),
    output: z.object({ ok: z.boolean() }),
    request: (p) => ({ method: 'GET', url: `${origin}/items`, headers: { 'x-pacing-key': p.key }, pacing: { key: p.key, ...pacing } }),
    response: (res) => res.body as { ok: boolean },
  });
}
