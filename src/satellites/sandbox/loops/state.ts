import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dictionaryOf, type Dictionary } from '../../../harness/dictionary.js';
import * as fixture from '../fixtures/loops.js';

export type PropertyType = 'string' | 'number' | 'boolean' | 'date';

export interface Contact {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  source: string;
  subscribed: boolean;
  userGroup: string;
  userId: string | null;
  mailingLists: Record<string, true>;
  optInStatus: 'pending' | 'accepted' | 'rejected' | null;
  createdAt: string;
  [custom: string]: unknown;
}

export interface OutboxEmail {
  id: string;
  transactionalId: string;
  transactionalName: string;
  to: string;
  subject: string;
  body: string;
  dataVariables: Record<string, unknown>;
  attachments: { filename: string; contentType: string; bytes: number }[];
  /** `suppressed` when the recipient is on the suppression list: Loops records it as a hard bounce. */
  status: 'sent' | 'suppressed';
  sentAt: string;
}

export interface LoopsEvent {
  eventName: string;
  contactId: string;
  email: string;
  eventProperties: Record<string, unknown>;
  receivedAt: string;
}

/** Everything the Loops emulator keeps; plain data, so it saves as JSON. */
export interface LoopsState {
  contacts: Contact[];
  customProperties: { key: string; label: string; type: PropertyType }[];
  mailingLists: typeof fixture.mailingLists;
  templates: fixture.TemplateFixture[];
  suppressed: string[];
  removalQuota: { limit: number; remaining: number };
  outbox: OutboxEmail[];
  events: LoopsEvent[];
  /** Idempotency keys (the client's header) with the time they were used and a hash of the body. */
  idempotency: Dictionary<{ at: number; body: string }>;
}

/** Loops ids look like cuid: 25 lower-case letters and digits starting with c. */
export function loopsId(): string {
  return `c${randomBytes(16).toString('hex').slice(0, 24)}`;
}

export function newContact(fields: Partial<Contact> & { email: string }): Contact {
  return {
    id: loopsId(),
    firstName: null,
    lastName: null,
    source: 'API',
    subscribed: true,
    userGroup: '',
    userId: null,
    mailingLists: {},
    optInStatus: null,
    createdAt: new Date().toISOString(),
    ...fields,
  };
}

function initialState(): LoopsState {
  const bounced = newContact({ ...fixture.suppressedContact, subscribed: false });
  return {
    contacts: [bounced],
    customProperties: fixture.customProperties.map((p) => ({ ...p })),
    mailingLists: fixture.mailingLists.map((l) => ({ ...l })),
    templates: fixture.templates.map((t) => ({ ...t })),
    suppressed: [bounced.id],
    removalQuota: { limit: 5, remaining: 5 },
    outbox: [],
    events: [],
    idempotency: dictionaryOf(),
  };
}

/** The state, from `dataDir/loops.json` when there is one, and a save function. */
export function loadState(dataDir: string | undefined): { state: LoopsState; save(): void } {
  const file = dataDir ? join(dataDir, 'loops.json') : undefined;
  const state = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LoopsState) : initialState();
  // Parsed JSON has plain objects; the keys are clients' and become a dictionary again.
  state.idempotency = dictionaryOf(state.idempotency);
  return { state, save: () => file && writeFileSync(file, JSON.stringify(state)) };
}
