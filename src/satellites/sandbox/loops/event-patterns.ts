import type { SandboxRequest } from '../http/types.js';
import type { LoopsState } from './state.js';
import { cursorPage } from './transactional.js';

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

/** `GET /event-patterns`: `{pagination, data}` of summaries, paged as the other lists. */
export function listEventPatterns(state: LoopsState, req: SandboxRequest) {
  const { pagination, data } = cursorPage(req, eventPatterns(state), '/event-patterns');
  return { pagination, data: data.map(({ id, eventName, incomingWebhookPlatform }) => ({ id, eventName, incomingWebhookPlatform })) };
}
