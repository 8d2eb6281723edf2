import { z } from 'zod';

/** The failures every fixture file may answer with, named as the tool's error code they produce. */
export const FAILURE_NAMES = ['unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'upstream_error'] as const;
export type FailureName = (typeof FAILURE_NAMES)[number];

/**
 * One HTTP answer as data: a JSON `body`, or a `text` body (its content type in `headers`), or
 * neither (an empty body). `source` says where it came from: a vendor document's section, "made
 * from the schema", or "recorded".
 */
export const fixtureAnswer = z.strictObject({
  status: z.number().int().min(100).max(599),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  text: z.string().optional(),
  source: z.string().min(1),
});
export type FixtureAnswer = z.infer<typeof fixtureAnswer>;

const failures = z.partialRecord(z.enum(FAILURE_NAMES), fixtureAnswer);

/** One tool's fixtures: an example call (routes are built from it), its success, its own failures. */
export const toolFixtures = z.strictObject({
  /** Params of one valid call, the credential left out (the mock fills it). */
  params: z.record(z.string(), z.unknown()).optional(),
  /** More example calls, for a tool whose params pick another endpoint (an id instead of a name). */
  moreParams: z.array(z.record(z.string(), z.unknown())).optional(),
  success: fixtureAnswer.optional(),
  failures: failures.optional(),
  /** Answers in the order they were recorded (a recording's), used one by one before `success`. */
  sequence: z.array(fixtureAnswer).optional(),
});
export type ToolFixtures = z.infer<typeof toolFixtures>;

/** A fixture file: one service's built-in fixtures, or a recording. */
export const fixtureFile = z.strictObject({
  service: z.string().optional(),
  /** Where the file's answers came from, as a whole. */
  source: z.string().optional(),
  tools: z.record(z.string(), toolFixtures),
  /** The service's failures, for every tool without its own. */
  failures: failures.optional(),
});
export type FixtureFile = z.infer<typeof fixtureFile>;

/** Checks parsed JSON as a fixture file; the error names the file and the field. */
export function parseFixtureFile(json: unknown, name: string): FixtureFile {
  const parsed = fixtureFile.safeParse(json);
  if (parsed.success) {
    // A key an object cannot hold as its own (`__proto__`) is dropped by the copy: refuse the file instead.
    const given = (json as { tools: object }).tools;
    const lost = Object.keys(given).find((key) => !Object.hasOwn(parsed.data.tools, key));
    if (lost !== undefined) throw new Error(`fixture file ${name} names a tool no service has: ${JSON.stringify(lost)}`);
    return parsed.data;
  }
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new Error(`fixture file ${name} is not valid: ${issues.join('; ')}`);
}
