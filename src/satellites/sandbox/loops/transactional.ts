import { randomUUID } from 'node:crypto';
import { ownValue } from '../../../harness/dictionary.js';
import type { SandboxRequest } from '../http/types.js';
import { findBy } from './contacts.js';
import { checkEmail, fail } from './errors.js';
import { newContact, type LoopsState } from './state.js';

const MAX_BYTES = 4 * 1024 * 1024;
const VARIABLE_NAME = /^[A-Za-z0-9_-]+$/;

function render(text: string, variables: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_-]+)\s*\}\}/g, (_, name: string) => String(ownValue(variables, name) ?? ''));
}

/** `POST /transactional`: checks the template and its data variables, then writes the e-mail to the outbox. */
export function sendTransactional(state: LoopsState, body: Record<string, unknown>, rawBytes: number) {
  if (rawBytes >= MAX_BYTES) throw fail(400, 'The request is larger than 4 MB.');
  const id = body.transactionalId;
  if (typeof id !== 'string' || !id) throw fail(400, 'transactionalId is required.', { path: 'transactionalId' });
  const email = checkEmail(body.email);
  const template = state.templates.find((t) => t.id === id);
  if (!template) {
    const message = 'Transactional email not found.';
    throw fail(404, message, { error: { path: 'transactionalId', message } });
  }
  if (!template.published) {
    const message = 'Transactional email is not published.';
    throw fail(400, message, { error: { path: 'transactionalId', message }, transactionalId: id });
  }
  const variables = (body.dataVariables ?? {}) as Record<string, unknown>;
  if (typeof variables !== 'object' || Array.isArray(variables)) throw fail(400, 'dataVariables must be an object.', { path: 'dataVariables' });
  for (const [name, value] of Object.entries(variables)) {
    if (!VARIABLE_NAME.test(name)) throw fail(400, `Invalid data variable name: ${name}`, { path: 'dataVariables' });
    // null does not work for an optional variable: omit it or send "".
    if (value === null) throw fail(400, `Data variable ${name} is null; omit it or send an empty string.`, { path: 'dataVariables' });
  }
  const missing = template.dataVariables.filter((v) => v.required && (ownValue(variables, v.name) ?? '') === '').map((v) => v.name);
  if (missing.length) {
    const message = `Missing required data variable(s): ${missing.join(', ')}`;
    throw fail(400, message, { error: { path: 'dataVariables', message }, transactionalId: id });
  }
  const attachments = Array.isArray(body.attachments) ? (body.attachments as Record<string, unknown>[]) : [];
  for (const a of attachments) {
    if (typeof a.filename !== 'string' || typeof a.contentType !== 'string' || typeof a.data !== 'string') {
      throw fail(400, 'Each attachment needs filename, contentType and data.', { path: 'attachments' });
    }
  }
  let contact = findBy(state, { email });
  if (!contact && body.addToAudience === true) {
    contact = newContact({ email, source: 'Transactional' });
    state.contacts.push(contact);
  }
  state.outbox.push({
    id: randomUUID(),
    transactionalId: id,
    transactionalName: template.name,
    to: email,
    subject: render(template.subject, variables),
    body: render(template.body, variables),
    dataVariables: variables,
    attachments: attachments.map((a) => ({
      filename: a.filename as string,
      contentType: a.contentType as string,
      bytes: Buffer.from(a.data as string, 'base64').length,
    })),
    status: contact && state.suppressed.includes(contact.id) ? 'suppressed' : 'sent',
    sentAt: new Date().toISOString(),
  });
  return { success: true };
}

/** Opaque cursors: the offset, base64url-encoded. */
const encodeCursor = (offset: number) => Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
function decodeCursor(cursor: string): number {
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { o: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // Falls through to the refusal below.
  }
  throw fail(400, 'Invalid cursor.');
}

/** A template as the newer endpoints describe it (`TransactionalResource`). */
function resource(t: LoopsState['templates'][number]) {
  return {
    id: t.id,
    name: t.name,
    draftEmailMessageId: t.published ? null : `em_${t.id}`,
    publishedEmailMessageId: t.published ? `em_${t.id}` : null,
    transactionalGroupId: null,
    createdAt: t.updatedAt,
    updatedAt: t.updatedAt,
    dataVariables: t.published ? t.dataVariables.map((v) => v.name) : [],
  };
}

/** `GET /transactional-emails/{transactionalId}`: one template, or 404 `{message}`. */
export function getTemplate(state: LoopsState, id: string) {
  const template = state.templates.find((t) => t.id === id);
  if (!template) throw fail(404, 'Transactional email not found.');
  return resource(template);
}

/**
 * One page of a list endpoint, as Loops pages them: `{pagination, data}` with perPage 10 to
 * 50 and an opaque cursor; `path` (under /api/v1) names the endpoint in `nextPage`.
 */
export function cursorPage<T>(req: SandboxRequest, all: readonly T[], path: string): { pagination: Record<string, unknown>; data: T[] } {
  const perPageText = req.query.get('perPage') ?? '20';
  const perPage = Number(perPageText);
  if (!/^\d+$/.test(perPageText) || perPage < 10 || perPage > 50) {
    throw fail(400, 'perPage must be a number between 10 and 50.');
  }
  const cursor = req.query.get('cursor');
  const offset = cursor ? decodeCursor(cursor) : 0;
  const page = all.slice(offset, offset + perPage);
  const next = offset + perPage < all.length ? encodeCursor(offset + perPage) : null;
  return {
    pagination: {
      totalResults: all.length,
      returnedResults: page.length,
      perPage,
      totalPages: Math.ceil(all.length / perPage),
      nextCursor: next,
      nextPage: next ? `${req.base}/api/v1${path}?cursor=${next}&perPage=${perPage}` : null,
    },
    data: page,
  };
}

/**
 * `GET /transactional` (published only, `lastUpdated`) and `GET /transactional-emails`
 * (all, newest first, the newer fields): `{pagination, data}` with perPage 10 to 50.
 */
export function listTemplates(state: LoopsState, req: SandboxRequest, newer: boolean) {
  const all = newer ? [...state.templates].reverse() : state.templates.filter((t) => t.published);
  const { pagination, data } = cursorPage(req, all, newer ? '/transactional-emails' : '/transactional');
  return {
    pagination,
    data: data.map((t) => (newer ? resource(t) : { id: t.id, name: t.name, lastUpdated: t.updatedAt, dataVariables: t.dataVariables.map((v) => v.name) })),
  };
}
