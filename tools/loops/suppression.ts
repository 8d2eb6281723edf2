import { z } from 'zod';
import { emailParam, identityRule, userIdParam } from './params.js';
import { apiKeyParam } from './shared.js';

/** Both suppression calls identify the contact by exactly one of email / userId, in the query. */
export const suppressionParams = z
  .object({
    apiKey: apiKeyParam,
    email: emailParam.optional().describe('Contact e-mail address (for a transactional e-mail: the recipient)'),
    userId: userIdParam.optional(),
  })
  .superRefine(identityRule('exactly-one'));

export const removalQuotaSchema = z
  .object({
    limit: z.number().describe('Removals allowed per rolling 30 days'),
    remaining: z.number().describe('Removals left in the current 30 days'),
  })
  .describe('Suppression removals allowed and left');
