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

const STANDARD = new Set(['id', 'email', 'firstName', 'lastName', 'source', 'subscribed', 'userGroup', 'userId', 'mailingLists', 'optInStatus']);

/** A contact as Loops returns it, in the spec's shape. Absent optional fields become null. */
export function toContact(wire: Record<string, unknown>): z.input<typeof contactSchema> {
  const customProperties = Object.fromEntries(Object.entries(wire).filter(([key]) => !STANDARD.has(key)));
  return {
    id: wire.id as string,
    email: wire.email as string,
    firstName: (wire.firstName ?? null) as string | null,
    lastName: (wire.lastName ?? null) as string | null,
    source: (wire.source ?? null) as string | null,
    subscribed: wire.subscribed as boolean,
    userGroup: (wire.userGroup ?? null) as string | null,
    userId: (wire.userId ?? null) as string | null,
    mailingLists: (wire.mailingLists ?? {}) as Record<string, boolean>,
    customProperties,
    optInStatus: (wire.optInStatus ?? null) as 'pending' | 'accepted' | 'rejected' | null,
  };
}
