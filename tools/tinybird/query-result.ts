import { z } from 'zod';

/** Column descriptors of a FORMAT JSON result. */
export const metaSchema = z.array(z.object({ name: z.string(), type: z.string() })).describe('Column names and types');

export const statisticsSchema = z
  .looseObject({
    elapsed: z.number().describe('Seconds'),
    rows_read: z.number(),
    bytes_read: z.number(),
  })
  .describe('Elapsed time in seconds, rows read, bytes read');

export const rowsSchema = z.array(z.record(z.string(), z.unknown())).describe('Result rows');

/** A FORMAT JSON body, as the Query API and the Pipes API both send it. */
export const jsonResultSchema = z.object({
  data: rowsSchema,
  meta: metaSchema,
  rows: z.number().int().describe('Row count'),
  rows_before_limit_at_least: z.number().int().optional().describe('Minimum row count without the LIMIT clause'),
  statistics: statisticsSchema,
});

const isRow = (row: unknown) => typeof row === 'object' && row !== null && !Array.isArray(row);

/**
 * Rows checked in place: an array of JSON objects, the same one returned, not a copy (zod's
 * array and record schemas build a new array and a new object per row, most of a large
 * answer's cost: docs/benchmarks.md). It
 * accepts what `rowsSchema` accepts, and names the first row that is not an object.
 *
 * A plain `check` that pushes its issue, not `superRefine`: `superRefine` sets an `addIssue`
 * closure on each parse's payload, and with it the parsed rows outlived the young-generation
 * collections (promoted, then freed only by full collections: several times the GC time per
 * answer, docs/benchmarks.md). The issue is the one `superRefine` made.
 */
export const rowsCheck = z.unknown().check((payload) => {
  const rows = payload.value;
  if (!Array.isArray(rows)) {
    payload.issues.push({ code: 'custom', message: 'expected an array of rows', input: rows, continue: true });
    return;
  }
  for (let i = 0; i < rows.length; i++) {
    if (!isRow(rows[i])) {
      payload.issues.push({ code: 'custom', path: [i], message: 'a row is a JSON object', input: rows, continue: true });
      return;
    }
  }
}) as unknown as z.ZodType<Record<string, unknown>[]>;

/** A FORMAT JSON body as the service sends it; other keys are let through, and dropped by the mapping. */
export const jsonResultWire = z.looseObject({
  data: rowsCheck,
  meta: z.array(z.looseObject({ name: z.string(), type: z.string() })),
  rows: z.number(),
  rows_before_limit_at_least: z.number().optional(),
  statistics: z.looseObject({ elapsed: z.number(), rows_read: z.number(), bytes_read: z.number() }),
});

/** What `outputCheck` of a query tool checks: `jsonResultSchema`, its rows checked in place. */
export const jsonResultCheck = jsonResultSchema.extend({ data: rowsCheck });

/** Picks the FORMAT JSON fields; the output schema then checks them. */
export function jsonResultFields(body: z.output<typeof jsonResultWire>): z.input<typeof jsonResultSchema> {
  const out = { data: body.data, meta: body.meta, rows: body.rows, statistics: body.statistics };
  return body.rows_before_limit_at_least === undefined
    ? out
    : { ...out, rows_before_limit_at_least: body.rows_before_limit_at_least };
}
