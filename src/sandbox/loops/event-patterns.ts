import type { SandboxRequest } from '../http/types.js';
import { fail } from './errors.js';
import type { LoopsState } from './state.js';

const typeOf = (value: unknown) => (typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string');

/** Event patterns as Loops derives them: one per event name received, with the property types seen. */
export function eventPatterns(state: LoopsState) {
  const byName = new Map<string, Map<string, string>>();
  for (const event of state.events) {
    const props = byName.get(event.eventName) ?? new Map<string, string>();
    for (const [name, value] of Object.entries(event.eventProperties ?? {})) if (!props.has(name)) props.set(name, typeOf(value));
    byName.set(event.eventName, props);
  }
  return [...byName].map(([eventName, props]) => ({
    id: `ep_${Buffer.from(eventName).toString('hex').slice(0, 24)}`,
    eventName,
    incomingWebhookPlatform: null,
    eventProperties: [...props].map(([name, type]) => ({ name, type })),
  }));
}

/** `GET /event-patterns`: `{pagination, data}` of summaries, perPage 10 to 50, an offset cursor. */
export function listEventPatterns(state: LoopsState, req: SandboxRequest) {
  const perPageText = req.query.get('perPage') ?? '20';
  const perPage = Number(perPageText);
  if (!/^\d+$/.test(perPageText) || perPage < 10 || perPage > 50) throw fail(400, 'perPage must be a number between 10 and 50.');
  const cursor = req.query.get('cursor');
  const offset = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isInteger(offset) || offset < 0) throw fail(400, 'Invalid cursor.');
  const all = eventPatterns(state);
  const page = all.slice(offset, offset + perPage);
  const next = offset + perPage < all.length ? Buffer.from(String(offset + perPage)).toString('base64url') : null;
  return {
    pagination: {
      totalResults: all.length,
      returnedResults: page.length,
      perPage,
      totalPages: Math.ceil(all.length / perPage),
      nextCursor: next,
      nextPage: next ? `${req.base}/api/v1/event-patterns?cursor=${next}&perPage=${perPage}` : null,
    },
    data: page.map(({ id, eventName, incomingWebhookPlatform }) => ({ id, eventName, incomingWebhookPlatform })),
  };
}
