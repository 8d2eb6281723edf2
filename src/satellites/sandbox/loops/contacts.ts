import { fail, checkEmail, exactlyOne } from './errors.js';
import { newContact, type Contact, type LoopsState } from './state.js';

/** Fields a request may set on a contact besides custom properties. */
const STANDARD = ['email', 'firstName', 'lastName', 'source', 'subscribed', 'userGroup', 'userId', 'mailingLists'] as const;

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function findBy(state: LoopsState, by: { email?: string; userId?: string }): Contact | undefined {
  return state.contacts.find((c) => (by.email !== undefined ? sameEmail(c.email, by.email) : by.userId !== undefined && c.userId === by.userId));
}

/**
 * Applies a request's fields to a contact: standard fields, mailing lists (true
 * subscribes, false unsubscribes) and known custom properties as top-level keys;
 * `null` resets a property; unknown keys are ignored, as Loops has done since 2024.
 */
export function applyFields(state: LoopsState, contact: Contact, body: Record<string, unknown>, skip: readonly string[] = []): void {
  for (const key of STANDARD) {
    if (!Object.hasOwn(body, key) || skip.includes(key) || key === 'mailingLists') continue;
    const value = body[key];
    if (key === 'subscribed') {
      if (typeof value !== 'boolean') throw fail(400, 'subscribed must be a boolean.');
      contact.subscribed = value;
    } else if (key === 'email') contact.email = checkEmail(value);
    else if (key === 'userGroup') contact.userGroup = value === null ? '' : String(value);
    else if (key === 'source') contact.source = value === null ? 'API' : String(value);
    else contact[key] = value === null ? null : String(value);
  }
  const lists = body.mailingLists;
  if (lists !== undefined && lists !== null) {
    if (typeof lists !== 'object' || Array.isArray(lists)) throw fail(400, 'mailingLists must be an object of list ids to booleans.');
    for (const [listId, on] of Object.entries(lists)) {
      if (!state.mailingLists.some((l) => l.id === listId)) throw fail(400, `Mailing list ${listId} not found.`);
      if (on === true) contact.mailingLists[listId] = true;
      else delete contact.mailingLists[listId];
    }
  }
  for (const property of state.customProperties) {
    // Own keys only: a property named `constructor` or `toString` is not in every body.
    if (!Object.hasOwn(body, property.key)) continue;
    const value = body[property.key];
    if (value !== null && property.type === 'number' && typeof value !== 'number') throw fail(400, `${property.key} must be a number.`);
    if (value !== null && property.type === 'boolean' && typeof value !== 'boolean') throw fail(400, `${property.key} must be a boolean.`);
    contact[property.key] = value;
  }
}

export function createContact(state: LoopsState, body: Record<string, unknown>): { success: true; id: string } {
  const email = checkEmail(body.email);
  const userId = typeof body.userId === 'string' && body.userId ? body.userId : undefined;
  if (findBy(state, { email }) || (userId && findBy(state, { userId }))) throw fail(409, 'Email or userId is already on list');
  const contact = newContact({ email });
  applyFields(state, contact, body);
  state.contacts.push(contact);
  return { success: true, id: contact.id };
}

/** Upsert: matches by either identifier, updates the other, creates when neither matches. */
export function upsertContact(state: LoopsState, body: Record<string, unknown>): Contact {
  const email = body.email === undefined || body.email === null ? undefined : checkEmail(body.email);
  const userId = typeof body.userId === 'string' && body.userId ? body.userId : undefined;
  if (!email && !userId) throw fail(400, 'An email or userId is required.');
  const byEmail = email ? findBy(state, { email }) : undefined;
  const byUserId = userId ? findBy(state, { userId }) : undefined;
  if (byEmail && byUserId && byEmail !== byUserId) throw fail(400, 'The email and the userId belong to two different contacts.');
  const found = byUserId ?? byEmail;
  if (found) {
    // Found by userId with another e-mail: this is how an address changes.
    applyFields(state, found, body);
    return found;
  }
  if (!email) throw fail(400, 'Contact not found. Send an email to create a contact.');
  const contact = newContact({ email });
  applyFields(state, contact, body);
  state.contacts.push(contact);
  return contact;
}

export function deleteContact(state: LoopsState, body: Record<string, unknown>): { success: true; message: string } {
  const by = exactlyOne(body.email, body.userId);
  const contact = findBy(state, by);
  if (!contact) throw fail(404, 'Contact not found.');
  state.contacts = state.contacts.filter((c) => c !== contact);
  state.suppressed = state.suppressed.filter((id) => id !== contact.id);
  return { success: true, message: 'Contact deleted.' };
}

export function findContacts(state: LoopsState, query: URLSearchParams): Contact[] {
  const by = exactlyOne(query.get('email') ?? undefined, query.get('userId') ?? undefined);
  const contact = findBy(state, by);
  return contact ? [contact] : [];
}

function suppressionTarget(state: LoopsState, query: URLSearchParams): Contact {
  const by = exactlyOne(query.get('email') ?? undefined, query.get('userId') ?? undefined);
  const contact = findBy(state, by);
  if (!contact) throw fail(404, 'This contact was not found.');
  return contact;
}

export function checkSuppression(state: LoopsState, query: URLSearchParams) {
  const contact = suppressionTarget(state, query);
  return {
    contact: { id: contact.id, email: contact.email, userId: contact.userId },
    isSuppressed: state.suppressed.includes(contact.id),
    removalQuota: { ...state.removalQuota },
  };
}

export function removeSuppression(state: LoopsState, query: URLSearchParams) {
  const contact = suppressionTarget(state, query);
  if (!state.suppressed.includes(contact.id)) throw fail(400, 'This contact is not suppressed.');
  if (state.removalQuota.remaining <= 0) throw fail(400, 'The suppression removal quota for the last 30 days is used up.');
  state.suppressed = state.suppressed.filter((id) => id !== contact.id);
  state.removalQuota.remaining--;
  return { success: true, message: 'Email removed from suppression list.', removalQuota: { ...state.removalQuota } };
}
