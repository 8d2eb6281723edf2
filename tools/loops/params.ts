import { z } from 'zod';
import { uiParam } from '../../src/kit.js';
import { apiKeyParam } from './connection.js';

/** Loops refuses any body value over 500 characters, the JSON quotes included. */
export const VALUE_CAP = 500;
const CAP_MESSAGE = `at most ${VALUE_CAP} characters once JSON-encoded (the service's limit for every value)`;

/** A string body value within the service's cap (escapes count, so the JSON form is measured). */
export function text() {
  return z
    .string()
    .max(VALUE_CAP - 2, { abort: true, error: CAP_MESSAGE })
    .refine((value) => JSON.stringify(value).length <= VALUE_CAP, CAP_MESSAGE);
}

export const emailParam = z
  .email({ error: (issue) => (issue.input === undefined ? 'an e-mail address is required' : 'not a valid e-mail address') })
  .max(254);

export const userIdParam = text().min(1).describe('Your own unique id for the contact (userId in Loops)');

/**
 * The two ways to name a contact; which of them a call needs is its `identityRule`, and each
 * description says it: a host that shows params one by one (Sim's editor, a model's tool list)
 * cannot show a rule between two fields otherwise.
 */
export const contactIdentityParams = {
  email: emailParam.optional().describe('Contact e-mail address; give email or userId (or both) to identify the contact'),
  userId: userIdParam.optional().describe('Your own unique id for the contact (userId in Loops); give email or userId (or both)'),
};

/** The same two, for the calls that take exactly one of them. */
const contactLookupIdentity = {
  email: emailParam.optional().describe('Contact e-mail address; give exactly one of email or userId'),
  userId: userIdParam.optional().describe('Your own unique id for the contact (userId in Loops); give exactly one of email or userId'),
};

type Identity = { email?: string; userId?: string };

/**
 * find, delete and the suppression calls take exactly one of email / userId; update and
 * send event take at least one. The issue names the field to fix.
 */
export function identityRule(mode: 'exactly-one' | 'at-least-one') {
  return (p: Identity, ctx: z.RefinementCtx) => {
    if (p.email === undefined && p.userId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'give email or userId to identify the contact' });
    } else if (mode === 'exactly-one' && p.email !== undefined && p.userId !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['userId'], message: 'give email or userId, not both: this call takes exactly one' });
    }
  };
}

/** The params of the calls that look one contact up (find, delete, the suppression calls): exactly one of email / userId. */
export const contactLookupParams = z
  .object({ apiKey: apiKeyParam, ...contactLookupIdentity })
  .superRefine(identityRule('exactly-one'));

/** Names Loops keeps for itself: a property cannot be created with them. */
export const RESERVED_PROPERTY_NAMES: readonly string[] = ['id', 'listId', 'softDeleteAt', 'teamId', 'updatedAt'];
/** Properties every contact already has. */
export const DEFAULT_PROPERTY_NAMES: readonly string[] = [
  'email',
  'firstName',
  'lastName',
  'notes',
  'source',
  'subscribed',
  'userGroup',
  'userId',
  'createdAt',
];
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;
const CAMEL_CASE_MESSAGE = 'property names are camelCase: a lower-case letter, then letters and digits (e.g. planName)';

export const propertyNameParam = text()
  .regex(CAMEL_CASE, CAMEL_CASE_MESSAGE)
  .refine((name) => !RESERVED_PROPERTY_NAMES.includes(name), {
    error: (issue) => `${String(issue.input)} is reserved by Loops (${RESERVED_PROPERTY_NAMES.join(', ')})`,
  })
  .refine((name) => !DEFAULT_PROPERTY_NAMES.includes(name), {
    error: (issue) => `${String(issue.input)} is a default contact property and already exists`,
  })
  .describe('Property name in camelCase, e.g. planName');

export const propertyTypeParam = z.enum(['string', 'number', 'boolean', 'date']).describe('Value type of the property');

/** Keys a custom property may not take: the reserved ones, and those with a param of their own. */
const NOT_CUSTOM = new Map<string, string>([
  ['email', 'email has its own param'],
  ['userId', 'userId has its own param'],
  ['mailingLists', 'mailingLists has its own param'],
  ...RESERVED_PROPERTY_NAMES.map((name): [string, string] => [name, `${name} is reserved by Loops`]),
]);

function checkPropertyKeys(record: Record<string, unknown> | undefined, ctx: z.RefinementCtx): void {
  for (const key of Object.keys(record ?? {})) {
    // A Map: the key `constructor` is a (camelCase) property name, not Object's constructor.
    const message = NOT_CUSTOM.get(key) ?? (CAMEL_CASE.test(key) ? undefined : CAMEL_CASE_MESSAGE);
    if (message) ctx.addIssue({ code: 'custom', path: [key], message: `${key}: ${message}` });
  }
}

const SCALAR_MESSAGE = 'a value is a string of at most 500 characters, a number or a boolean';
const scalar = z.union([text(), z.number(), z.boolean()], { error: SCALAR_MESSAGE });

/**
 * Contact properties by key, sent as top-level body keys. Dates go as a string
 * (YYYY-MM-DD, ISO date-time) or a Unix timestamp in milliseconds. With `resettable`,
 * null resets a property.
 */
export function customPropertiesParam(resettable: boolean) {
  const value = resettable ? z.union([text(), z.number(), z.boolean(), z.null()], { error: `${SCALAR_MESSAGE}, or null to reset` }) : scalar;
  const description = resettable
    ? 'Contact properties by camelCase key (string, number, boolean, or a date as YYYY-MM-DD / ISO string / Unix ms); null resets a property. They must exist in Loops first'
    : 'Contact properties by camelCase key (string, number, boolean, or a date as YYYY-MM-DD / ISO string / Unix ms). They must exist in Loops first';
  return uiParam(z.record(z.string(), value).superRefine(checkPropertyKeys).optional().describe(description), {
    ui: 'json',
    placeholder: '{"planName":"Pro"}',
  });
}

/** Issues on record keys, named by the key (zod would only say "Invalid key in record"). */
function keysMatch(test: (key: string) => boolean, message: string) {
  return (record: Record<string, unknown> | undefined, ctx: z.RefinementCtx) => {
    for (const key of Object.keys(record ?? {})) if (!test(key)) ctx.addIssue({ code: 'custom', path: [key], message });
  };
}

export const mailingListsParam = uiParam(
  z
    .record(z.string(), z.boolean(), { error: 'mailingLists maps list ids to true (subscribe) or false (unsubscribe)' })
    .superRefine(keysMatch((id) => id.trim().length > 0, 'a mailing-list id cannot be empty'))
    .optional()
    .describe('Mailing-list subscriptions by list id: true subscribes, false unsubscribes (ids from loops_list_mailing_lists)'),
  { ui: 'json', placeholder: '{"cm06f5v0e45nf0ml5754o9cix":true}' },
);

/** Event property names are trimmed by Loops, so two that differ only by spaces collide. */
function checkEventPropertyNames(record: Record<string, unknown> | undefined, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const key of Object.keys(record ?? {})) {
    const name = key.trim();
    if (!name) ctx.addIssue({ code: 'custom', path: [key], message: 'an event property needs a name' });
    else if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [key], message: `${name} appears twice once spaces are trimmed` });
    seen.add(name);
  }
}

export const eventPropertiesParam = uiParam(
  z
    .record(z.string(), scalar)
    .superRefine(checkEventPropertyNames)
    .optional()
    .describe('Event properties for e-mails the event triggers: string, number, boolean, or a date (YYYY-MM-DD / ISO string / Unix ms)'),
  { ui: 'json', placeholder: '{"plan":"pro"}' },
);

const DATA_VARIABLE_NAME = /^[A-Za-z0-9_-]+$/;

/** Why a data variable was refused, by what it is: the cap for a long string, the rule for null. */
function dataVariableMessage(input: unknown): string {
  if (typeof input === 'string') return `a string data variable is ${CAP_MESSAGE}; this one is ${JSON.stringify(input).length}`;
  if (input === null) return 'null does not work for a data variable: leave an optional variable out or send ""';
  if (Array.isArray(input)) {
    return `an array data variable holds up to ${MAX_ARRAY_ROWS} objects whose values are numbers or strings of ${CAP_MESSAGE}`;
  }
  return 'a data variable is a string, a number, or an array of up to 100 objects of strings and numbers';
}
const dataValue = z.union([text(), z.number()]);
/** Array data variables (array blocks in the template) hold up to 100 rows. */
export const MAX_ARRAY_ROWS = 100;

export const dataVariablesParam = uiParam(
  z
    .record(
      z.string(),
      z.union([dataValue, z.array(z.record(z.string(), dataValue)).max(MAX_ARRAY_ROWS)], { error: (issue) => dataVariableMessage(issue.input) }),
    )
    .superRefine(keysMatch((name) => DATA_VARIABLE_NAME.test(name), 'data-variable names have only letters, digits, underscores and dashes'))
    .optional()
    .describe(
      'Values for the template\'s data variables, by case-sensitive name (letters, digits, _ and -): strings or numbers, arrays of objects for array blocks; leave optional ones out or send ""',
    ),
  { ui: 'json', placeholder: '{"name":"Alex","resetUrl":"https://example.com/reset"}' },
);

const MIME_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;.*)?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const attachmentsParam = uiParam(
  z
    .array(
      z.object({
        filename: text().min(1).describe('File name shown in e-mail clients'),
        contentType: z.string().regex(MIME_TYPE, 'a MIME type such as application/pdf').describe('MIME type'),
        data: z
          .string()
          .min(1)
          .regex(BASE64, 'data must be base64 (A–Z, a–z, 0–9, +, /, = padding; no line breaks)')
          .describe('File content, base64-encoded'),
      }),
    )
    .optional()
    .describe('Files to attach: {filename, contentType, data (base64)}; attachments must be enabled for the team by Loops support'),
  { ui: 'json', placeholder: '[{"filename":"invoice.pdf","contentType":"application/pdf","data":"JVBERi0..."}]' },
);
