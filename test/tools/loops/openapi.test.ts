import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRequest } from '../../../src/harness/send/request.js';
import type { AnyTool } from '../../../src/harness/types.js';
import { service } from '../../../tools/loops/index.js';

const loopsTools: readonly AnyTool[] = service.tools;
import { DEFAULT_SOURCE, deriveFacts, FIXTURE, renderFacts, type LoopsOpenApiFacts, type OperationFact, type ValueFact } from '../../../scripts/loops-openapi-facts.js';
import { CASES } from './cases.js';
import { API, API_KEY, loops, ORIGIN } from './setup.js';

const facts = JSON.parse(readFileSync(FIXTURE, 'utf8')) as LoopsOpenApiFacts;

/** Which vendor operation each tool calls. */
const OPERATION_OF: Record<string, string> = {
  loops_test_api_key: 'testApiKey',
  loops_create_contact: 'createContact',
  loops_update_contact: 'updateContact',
  loops_find_contact: 'findContact',
  loops_delete_contact: 'deleteContact',
  loops_check_contact_suppression: 'getContactSuppression',
  loops_remove_contact_suppression: 'removeContactSuppression',
  loops_create_contact_property: 'createContactProperty',
  loops_list_contact_properties: 'listContactProperties',
  loops_send_event: 'sendEvent',
  loops_send_transactional_email: 'sendTransactionalEmail',
  loops_list_mailing_lists: 'listMailingLists',
  loops_list_transactional_emails: 'listTransactionalEmails',
  loops_get_transactional_email: 'getTransactionalEmail',
  loops_list_event_patterns: 'listEventPatterns',
  loops_get_event_pattern: 'getEventPatternByName',
  loops_list_dedicated_sending_ips: 'listDedicatedSendingIps',
};

/** The other operation a tool calls for other params: loops_get_event_pattern by id. */
const ALSO_OF: Record<string, { operationId: string; params: Record<string, unknown> }> = {
  loops_get_event_pattern: { operationId: 'getEventPattern', params: { eventPatternId: 'clep0000000000000000000001' } },
};

/** Operations a tool falls back to when its own answers that it is not there (checked in their own test below). */
const FALLBACK_OF: Record<string, string> = {
  loops_list_transactional_emails: 'listPublishedTransactionalEmails',
};

/** A described path as a pattern: `{transactionalId}` matches one non-empty segment. */
const pathPattern = (path: string) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);

/**
 * Where the tools follow the docs against the OpenAPI file, on purpose (reference §9):
 * delete takes one of email / userId (the file requires both, contradicting its own 400),
 * and update resets a property with null (the file's extra keys allow no null).
 */
const DEVIATIONS: Record<string, { oneOfInsteadOfBoth?: string[]; nullResets?: boolean }> = {
  deleteContact: { oneOfInsteadOfBoth: ['email', 'userId'] },
  updateContact: { nullResets: true },
};

/** More calls per tool than the fixture cases: every optional field and each identifier. */
const EXTRA: { id: string; params: Record<string, unknown> }[] = [
  { id: 'loops_create_contact', params: { email: 'a@b.co', firstName: 'A', lastName: 'B', source: 'Import', subscribed: false, userGroup: 'g', userId: 'u', mailingLists: { l1: true }, customProperties: { n: 1 } } },
  { id: 'loops_update_contact', params: { email: 'a@b.co', firstName: 'A', lastName: 'B', source: 'Import', subscribed: true, userGroup: 'g', mailingLists: { l1: false } } },
  { id: 'loops_update_contact', params: { userId: 'u', customProperties: { planName: 'Pro' } } },
  { id: 'loops_find_contact', params: { userId: 'u' } },
  { id: 'loops_delete_contact', params: { email: 'a@b.co' } },
  { id: 'loops_check_contact_suppression', params: { userId: 'u' } },
  { id: 'loops_remove_contact_suppression', params: { email: 'a@b.co' } },
  { id: 'loops_send_event', params: { eventName: 'e', email: 'a@b.co', userId: 'u' } },
  { id: 'loops_send_transactional_email', params: { email: 'a@b.co', transactionalId: 't', addToAudience: true } },
  { id: 'loops_list_transactional_emails', params: {} },
  { id: 'loops_list_contact_properties', params: {} },
];

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function allows(types: string[], value: unknown): boolean {
  const type = jsonType(value);
  return types.includes(type) || (type === 'number' && types.includes('integer') && Number.isInteger(value));
}

/** Every way `value` breaks `fact`, as readable lines (empty when it conforms). */
function violations(value: unknown, fact: ValueFact, path: string, deviation: (typeof DEVIATIONS)[string] = {}): string[] {
  if (fact.type.length && !allows(fact.type, value)) return [`${path}: ${jsonType(value)} where ${fact.type.join('|')} is described`];
  if (fact.enum && !fact.enum.includes(value)) return [`${path}: ${String(value)} is not one of ${fact.enum.join(', ')}`];
  if (typeof value === 'string' && fact.maxLength !== undefined && value.length > fact.maxLength) return [`${path}: longer than ${fact.maxLength}`];
  if (Array.isArray(value) && fact.items) return value.flatMap((item, i) => violations(item, fact.items!, `${path}[${i}]`));
  if (jsonType(value) !== 'object') return [];
  const record = value as Record<string, unknown>;
  const out: string[] = [];
  const required = fact.required ?? [];
  const oneOf = deviation.oneOfInsteadOfBoth;
  if (oneOf && oneOf.every((name) => required.includes(name))) {
    if (oneOf.filter((name) => name in record).length !== 1) out.push(`${path}: exactly one of ${oneOf.join(', ')}`);
  } else {
    for (const name of required) if (!(name in record)) out.push(`${path}.${name}: required`);
  }
  if (fact.requiredOneOf && !fact.requiredOneOf.some((names) => names.every((name) => name in record))) {
    out.push(`${path}: needs one of ${fact.requiredOneOf.map((names) => names.join('+')).join(' / ')}`);
  }
  for (const [key, item] of Object.entries(record)) {
    const field = fact.fields?.[key];
    if (field) out.push(...violations(item, field, `${path}.${key}`));
    else if (fact.additional === false) out.push(`${path}.${key}: no such field`);
    else if (fact.additional && !allows(fact.additional, item) && !(deviation.nullResets && item === null)) {
      out.push(`${path}.${key}: ${jsonType(item)} where extra keys take ${fact.additional.join('|')}`);
    }
  }
  return out;
}

/** Every way the request a tool builds differs from the vendor's description of its operation. */
async function requestViolations(tool: AnyTool, params: Record<string, unknown>, op: OperationFact, operationId: string): Promise<string[]> {
  const parsed = tool.params.parse({ apiKey: API_KEY, ...params });
  const spec = tool.request(parsed, { idempotencyKey: '0b5c3f0e-9d8a-4c1e-8f7a-2b6d9e1c4a3f' });
  const built = await buildRequest(spec);
  const url = new URL(built.url);
  const out: string[] = [];
  if (built.method !== op.method) out.push(`method ${built.method}, described ${op.method}`);
  if (url.origin !== new URL(facts.source.server).origin || !pathPattern(`${new URL(facts.source.server).pathname}${op.path}`).test(url.pathname)) out.push(`url ${url.origin}${url.pathname}, described ${facts.source.server}${op.path}`);
  for (const [name, value] of url.searchParams) {
    const param = op.query[name];
    if (!param) out.push(`query ${name}: not a parameter`);
    else if (param.maxLength !== undefined && value.length > param.maxLength) out.push(`query ${name}: too long`);
  }
  for (const [name, param] of Object.entries(op.query)) if (param.required && !url.searchParams.has(name)) out.push(`query ${name}: required`);
  if (op.auth === 'http/bearer' && built.headers.authorization !== `Bearer ${API_KEY}`) out.push('authorization: not a Bearer key');
  const described = Object.fromEntries(Object.entries(op.headers).map(([name, fact]) => [name.toLowerCase(), fact]));
  for (const name of ['idempotency-key']) {
    if (built.headers[name] !== undefined && !described[name]) out.push(`header ${name}: not a parameter of this operation`);
    if (described[name]?.maxLength !== undefined && (built.headers[name]?.length ?? 0) > described[name]!.maxLength!) out.push(`header ${name}: too long`);
  }
  if (!op.body) {
    if (built.body !== undefined) out.push('a body where none is described');
    return out;
  }
  if (built.body === undefined) return op.body.required ? [...out, 'no body, one is required'] : out;
  if (built.headers['content-type'] !== 'application/json') out.push(`content-type ${built.headers['content-type']}`);
  return [...out, ...violations(JSON.parse(String(built.body)), op.body.schema, 'body', DEVIATIONS[operationId])];
}

describe('requests against the vendor OpenAPI description', () => {
  it('maps every tool to an operation of the fixture, and the fixture holds only those', () => {
    // loops_api_call has no operation of its own: it sends what the caller names.
    expect(loopsTools.map((tool) => tool.id).filter((id) => id !== 'loops_api_call').sort()).toEqual(Object.keys(OPERATION_OF).sort());
    expect(Object.keys(facts.operations).sort()).toEqual([...Object.values(OPERATION_OF), ...Object.values(FALLBACK_OF), ...Object.values(ALSO_OF).map((a) => a.operationId)].sort());
  });

  it.each([...CASES.map(({ id, params }) => ({ id, params })), ...EXTRA])('$id $params matches its operation', async ({ id, params }) => {
    const tool = loopsTools.find((t) => t.id === id)!;
    const operationId = OPERATION_OF[id]!;
    expect(await requestViolations(tool, params, facts.operations[operationId]!, operationId)).toEqual([]);
  });

  it.each(Object.entries(ALSO_OF))('%s with other params matches its other operation', async (id, { operationId, params }) => {
    const tool = loopsTools.find((t) => t.id === id)!;
    expect(await requestViolations(tool, params, facts.operations[operationId]!, operationId)).toEqual([]);
  });

  it('sends the Idempotency-Key exactly where the vendor describes one', () => {
    const withKey = loopsTools.filter((tool) => tool.id in OPERATION_OF).filter((tool) => {
      const parsed: unknown = tool.params.parse({ apiKey: API_KEY, ...CASES.find((c) => c.id === tool.id)!.params });
      return tool.request(parsed, { idempotencyKey: 'k' }).idempotencyKey !== undefined;
    });
    const described = Object.entries(OPERATION_OF).filter(([, op]) => 'Idempotency-Key' in facts.operations[op]!.headers);
    expect(withKey.map((tool) => tool.id).sort()).toEqual(described.map(([id]) => id).sort());
  });

  it('falls back to the operation it names, as described, when the newer one answers 404', async () => {
    const svc = loops();
    svc.on('GET', `${API}/transactional-emails`, { status: 404, body: { message: 'Not found' } });
    svc.on('GET', `${API}/transactional`, { status: 200, body: { pagination: { totalResults: 0, returnedResults: 0, perPage: 10, totalPages: 0, nextCursor: null, nextPage: null }, data: [] } });
    expect(await svc.run('loops_list_transactional_emails', { perPage: '10', cursor: 'c1' })).toMatchObject({ success: true });
    const fallback = svc.requests[1]!;
    const op = facts.operations[FALLBACK_OF.loops_list_transactional_emails!]!;
    expect(op.deprecated).toBe(true);
    expect([fallback.method, `${ORIGIN}${fallback.path}`]).toEqual([op.method, `${facts.source.server}${op.path}`]);
    expect(Object.keys(fallback.query).filter((name) => !op.query[name])).toEqual([]);
    expect(facts.operations.listTransactionalEmails!.deprecated).toBe(false);
  });

  it('catches a request that strays from the description (the check can fail)', async () => {
    const create = loopsTools.find((t) => t.id === 'loops_create_contact')!;
    const op = facts.operations.createContact!;
    const strayed = { ...create, request: (p: never, o: never) => ({ ...create.request(p, o), method: 'PUT' as const, body: { json: { firstName: 1, extra: { nested: true } } } }) };
    expect(await requestViolations(strayed, { email: 'a@b.co' }, op, 'createContact')).toEqual([
      'method PUT, described POST',
      'body.email: required',
      'body.firstName: number where string is described',
      'body.extra: object where extra keys take string|number|boolean',
    ]);
  });

  it('keeps only deviations the vendor file really has', () => {
    expect(facts.operations.deleteContact!.body!.schema.required).toEqual(['email', 'userId']);
    expect(facts.operations.updateContact!.body!.schema.additional).not.toContain('null');
  });

  it.skipIf(!existsSync(DEFAULT_SOURCE))('is up to date with the OpenAPI file (npx tsx scripts/loops-openapi-facts.ts)', () => {
    expect(readFileSync(FIXTURE, 'utf8')).toBe(renderFacts(deriveFacts(readFileSync(DEFAULT_SOURCE, 'utf8'))));
  });
});
