import { z } from 'zod';

/** The spec's contact; Loops sends custom properties as top-level keys, gathered here into customProperties. */
export const contactSchema = z.object({
  id: z.string().describe('Loops contact id'),
  email: z.string().describe('E-mail address'),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  source: z.string().nullable().describe('Where the contact came from (API unless set)'),
  subscribed: z.boolean().describe('Receives campaign and workflow e-mail'),
  userGroup: z.string().nullable(),
  userId: z.string().nullable().describe('Your own id for the contact'),
  mailingLists: z.record(z.string(), z.boolean()).describe('Mailing lists the contact is subscribed to, by list id'),
  customProperties: z.record(z.string(), z.unknown()).describe('Every other property of the contact, by key'),
  optInStatus: z.enum(['pending', 'accepted', 'rejected']).nullable().describe('Double opt-in status; null without double opt-in'),
});

/** A contact as Loops sends it: optional fields may be missing or null, custom properties are top-level keys. */
export const contactWire = z.looseObject({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  source: z.string().nullish(),
  subscribed: z.boolean(),
  userGroup: z.string().nullish(),
  userId: z.string().nullish(),
  mailingLists: z.record(z.string(), z.boolean()).nullish(),
  optInStatus: z.enum(['pending', 'accepted', 'rejected']).nullish(),
});

const STANDARD = new Set(['id', 'email', 'firstName', 'lastName', 'source', 'subscribed', 'userGroup', 'userId', 'mailingLists', 'optInStatus']);

/** A contact as Loops returns it, in the spec's shape. Absent optional fields become null. */
export function toContact(wire: z.output<typeof contactWire>): z.input<typeof contactSchema> {
  const customProperties = Object.fromEntries(Object.entries(wire).filter(([key]) => !STANDARD.has(key)));
  return {
    id: wire.id,
    email: wire.email,
    firstName: wire.firstName ?? null,
    lastName: wire.lastName ?? null,
    source: wire.source ?? null,
    subscribed: wire.subscribed,
    userGroup: wire.userGroup ?? null,
    userId: wire.userId ?? null,
    mailingLists: wire.mailingLists ?? {},
    customProperties,
    optInStatus: wire.optInStatus ?? null,
  };
}

export const removalQuotaSchema = z
  .object({
    limit: z.number().describe('Removals allowed per rolling 30 days'),
    remaining: z.number().describe('Removals left in the current 30 days'),
  })
  .describe('Suppression removals allowed and left');
