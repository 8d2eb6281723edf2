/**
 * Fuzzing every tool's params with fast-check. Invalid input (one field given a value its
 * own schema refuses) must give `invalid_params` naming that field and send nothing; valid
 * input (fields given values their schemas accept) must build a request without throwing and
 * end in a result. FUZZ_RUNS sets the runs per tool and property (200 by default).
 */
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executeTool, getTool } from '../../src/index.js';
import { paramShape } from '../../src/harness/define/fields.js';
import { buildRequest } from '../../src/harness/send/request.js';
import type { ExecuteOptions } from '../../src/harness/types.js';
import { tally } from './tally.js';
import { TOOL_CASES, withAuth, type ReliabilityCase } from './tool-cases.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const ORIGIN = 'http://127.0.0.1:9';
/** Credentials and base URLs keep working values in the valid property: they are the caller's, not a model's. */
const FIXED = new Set(['base_url', 'token', 'apiKey']);

const odd = fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', "'; DROP TABLE events; --", '{{inputs.x}}', '%00%zz', '\u202e\ud83d\ude00', 'a'.repeat(5000), 'true', '-1', 'NaN');
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), odd);
/** Values of every JSON-ish kind, plus the ones JSON cannot hold. */
const anyValue = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constantFrom(null, undefined, Number.NaN, Infinity, -0),
  fc.array(fc.oneof(text, fc.integer()), { maxLength: 5 }),
  fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Values a field's JSON Schema names (enum options, consts, defaults), so narrow fields get valid values too. */
function namedValues(field: z.ZodType): unknown[] {
  const found: unknown[] = [];
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (Array.isArray(n.enum)) found.push(...n.enum);
    if ('const' in n) found.push(n.const);
    if ('default' in n) found.push(n.default);
    for (const value of Object.values(n)) if (typeof value === 'object') visit(value);
  };
  visit(z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }));
  return found.filter((v) => v !== undefined);
}

/** Generated values for a field: anything, or what its schema names. */
function candidates(field: z.ZodType) {
  const named = namedValues(field);
  return named.length ? fc.oneof(anyValue, fc.constantFrom(...named)) : anyValue;
}

/** Fields for which generated values are refused often enough to fuzz the refusal. */
function refusable(shape: Record<string, z.ZodType>, fields: string[]): string[] {
  return fields.filter((f) => fc.sample(anyValue, { numRuns: 100, seed: 1 }).filter((v) => v !== undefined && !shape[f]!.safeParse(v).success).length >= 10);
}

/** A MockAgent that answers every request with the case's reply, and counts them. */
function service(c: ReliabilityCase) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  let requests = 0;
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply(() => {
      requests++;
      const body = c.reply.body === undefined ? '' : JSON.stringify(c.reply.body);
      return { statusCode: c.reply.status, data: body, responseOptions: { headers: body ? { 'content-type': 'application/json' } : {} } };
    })
    .persist();
  return { agent, count: () => requests };
}

const family = tally('Fuzzing', 'generated params');
afterAll(() => {
  family.note(`${RUNS} runs per tool and property (FUZZ_RUNS), ${TOOL_CASES.length} tools × 2 properties`);
  family.save('fuzz');
});

describe.each(TOOL_CASES.map((c) => [c.id, c] as const))('%s', (id, c) => {
  const tool = getTool(id)!;
  const shape = paramShape(tool.params);
  const fields = Object.keys(shape).filter((name) => !FIXED.has(name));
  const base = withAuth(c, ORIGIN, { token: 'p.fuzz-token', apiKey: 'fuzz-api-key' });
  const options = (agent: MockAgent): ExecuteOptions => ({ dispatcher: agent, endpoints: { loops: `${ORIGIN}/loops` }, retry: false, timeoutMs: 2000, pacer: false });

  it('invalid: a value the field refuses gives invalid_params naming it, and nothing is sent', async () => {
    const svc = service(c);
    // Credentials too: a token of the wrong type is refused like any other field.
    const targets = refusable(shape, Object.keys(shape));
    expect(targets.length).toBeGreaterThan(0);
    const invalid = fc.tuple(fc.constantFrom(...targets), anyValue);
    let runs = 0;
    try {
      await fc.assert(
        fc.asyncProperty(invalid, async ([field, value]) => {
          fc.pre(value !== undefined && !shape[field]!.safeParse(value).success);
          runs++;
          const result = await executeTool(id, { ...base, [field]: value }, options(svc.agent));
          expect(result.success).toBe(false);
          if (result.success) return;
          expect(result.error.code).toBe('invalid_params');
          expect(result.error.issues?.some((issue) => issue.path.split('.')[0] === field)).toBe(true);
          expect(result.meta.attempts).toBe(0);
        }),
        { numRuns: RUNS },
      );
    } finally {
      family.recordMany(Math.max(runs, 1), runs === RUNS ? 0 : 1);
    }
    expect(runs).toBe(RUNS);
    expect(svc.count()).toBe(0);
    await svc.agent.close();
  });

  it('valid: values the fields accept build a request and end in a result', async () => {
    const svc = service(c);
    // Each field keeps its valid value or takes a generated one its schema accepts.
    const valid = fc.record(
      Object.fromEntries(fields.map((f) => [f, candidates(shape[f]!).map((v) => (v !== undefined && shape[f]!.safeParse(v).success ? v : null))])),
    );
    let runs = 0;
    let sent = 0;
    try {
      await fc.assert(
        fc.asyncProperty(valid, async (changes) => {
          runs++;
          const params = { ...base };
          for (const [field, value] of Object.entries(changes)) if (value !== null) params[field] = value;
          const parsed = tool.params.safeParse(params);
          const before = svc.count();
          const result = await executeTool(id, params, options(svc.agent));
          if (!parsed.success) {
            // Fields that fit alone can still break a rule across fields (exactly one of email and userId).
            expect(result).toMatchObject({ success: false, error: { code: 'invalid_params' } });
            expect(svc.count()).toBe(before);
            return;
          }
          await buildRequest(tool.request(parsed.data, {}));
          expect(svc.count()).toBeGreaterThan(before);
          sent++;
          if (!result.success) expect(result.error.code).not.toBe('invalid_params');
        }),
        { numRuns: RUNS },
      );
    } finally {
      family.recordMany(Math.max(runs, 1), runs === RUNS ? 0 : 1);
    }
    expect(runs).toBe(RUNS);
    // The generator must mostly produce valid params, or this property tests little.
    expect(sent).toBeGreaterThan(RUNS / 2);
    await svc.agent.close();
  });
});
