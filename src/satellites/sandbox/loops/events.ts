import { upsertContact } from './contacts.js';
import { fail } from './errors.js';
import type { LoopsState } from './state.js';

/** `POST /events/send`: finds or creates the contact, applies its properties and records the event. */
export function sendEvent(state: LoopsState, body: Record<string, unknown>) {
  const eventName = body.eventName;
  if (typeof eventName !== 'string' || !eventName.trim()) throw fail(400, 'eventName is required.');
  const properties = body.eventProperties ?? {};
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) throw fail(400, 'eventProperties must be an object.');
  const { eventName: _name, eventProperties: _props, ...contactFields } = body;
  const contact = upsertContact(state, contactFields);
  const trimmed = Object.fromEntries(Object.entries(properties as Record<string, unknown>).map(([k, v]) => [k.trim(), v]));
  state.events.push({ eventName, contactId: contact.id, email: contact.email, eventProperties: trimmed, receivedAt: new Date().toISOString() });
  return { success: true };
}
