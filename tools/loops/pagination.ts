import { z } from 'zod';

/** `pagination` of Loops' paged lists (`/transactional-emails`, `/event-patterns`, …). */
export const paginationSchema = z
  .object({
    totalResults: z.number(),
    returnedResults: z.number(),
    perPage: z.number(),
    totalPages: z.number(),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
    nextPage: z.string().nullable().describe('URL of the next page; null on the last page'),
  })
  .describe('Paging: totals, and the cursor of the next page');

/** `perPage` as those lists take it: a string of 10 to 50, 20 by default. */
export function perPageParam(items: string) {
  return z.coerce
    .string()
    .regex(/^\d+$/, 'perPage is a whole number from 10 to 50')
    .refine((value) => Number(value) >= 10 && Number(value) <= 50, 'perPage is a whole number from 10 to 50')
    .default('20')
    .describe(`${items} per page, 10 to 50`);
}

export const cursorParam = z.string().min(1).optional().describe('pagination.nextCursor of the previous page');
