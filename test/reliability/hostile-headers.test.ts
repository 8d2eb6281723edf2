/**
 * Hostile rate-limit headers: a service (or anything between it and us) that sends a limit of
 * 10⁹, a reset a year or 8 000 years away, Retry-After of 1e400 or -1, repeated header lines,
 * fractions and garbage. Each value is tried on a Tinybird query (retried, not paced) and a
 * Loops send (paced per key, by the shared pacer) against a local server. Every case must end
 * in success or in `rate_limited` saying when to come back (at most a day), within the call's
 * budget, with nothing sent that should not be and no timer past 2³¹−1 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import { MAX_HEADER_COUNT, MAX_HEADER_WAIT_MS } from '../../src/harness/pace/header-figures.js';
import type { ToolResult } from '../../src/harness/types.js';
import { watchTimerWarnings } from '../helpers/timer-warnings.js';
import { canary } from './canary.js';
import { startScriptedServer, type ScriptedRequest } from './scripted-server.js';
import { hostileTally } from './tally.js';
import { TOOL_CASES, withAuth } from './tool-cases.js';

const family = hostileTally('headers');
afterAll(() => family.save());

const DAY = MAX_HEADER_WAIT_MS;
/** The call's budget: `retry.maxRetryAfterMs`. */
const BUDGET_MS = 2_000;
const YEAR_S = 365 * 86_400;
const yearAway = () => String(Math.floor(Date.now() / 1000) + YEAR_S);
const YEAR_9999 = 'Fri, 31 Dec 9999 23:59:59 GMT';

/** `succeeds`, or handed back as `rate_limited` with about this `retryAfterMs`. */
type Want = 'succeeds' | number;

interface HeaderCase {
  name: string;
  /** 429: one call, retried once. 200: the answer to a first call; the want is the second call's. */
  status: 429 | 200;
  headers: () => Record<string, string | string[]>;
  want: Want;
  /** What the paced Loops send ends in, when it differs. */
  paced?: Want;
}

const CASES: HeaderCase[] = [
  // Retry-After on a 429.
  { name: 'Retry-After: 99999999999', status: 429, headers: () => ({ 'retry-after': '99999999999' }), want: DAY },
  { name: 'Retry-After: 1e400', status: 429, headers: () => ({ 'retry-after': '1e400' }), want: DAY },
  { name: 'Retry-After: a date in year 9999', status: 429, headers: () => ({ 'retry-after': YEAR_9999 }), want: DAY },
  { name: 'Retry-After twice: 0 and 99999', status: 429, headers: () => ({ 'retry-after': ['0', '99999'] }), want: DAY },
  { name: 'Retry-After: -1', status: 429, headers: () => ({ 'retry-after': '-1' }), want: 'succeeds' },
  { name: 'Retry-After: 0.05', status: 429, headers: () => ({ 'retry-after': '0.05' }), want: 'succeeds' },
  { name: 'Retry-After: soon', status: 429, headers: () => ({ 'retry-after': 'soon' }), want: 'succeeds' },
  { name: 'Retry-After: NaN', status: 429, headers: () => ({ 'retry-after': 'NaN' }), want: 'succeeds' },
  { name: 'Retry-After: 0x10', status: 429, headers: () => ({ 'retry-after': '0x10' }), want: 'succeeds' },
  // Reset on a 429, in every unit a service might mean.
  { name: 'reset: epoch seconds a year away', status: 429, headers: () => ({ 'x-ratelimit-reset': yearAway() }), want: DAY },
  { name: 'reset: seconds from now, a year', status: 429, headers: () => ({ 'x-ratelimit-reset': String(YEAR_S) }), want: DAY },
  { name: 'reset: epoch ms in year 9999', status: 429, headers: () => ({ 'x-ratelimit-reset': '253402300799000' }), want: DAY },
  { name: 'reset: a date in year 9999', status: 429, headers: () => ({ 'x-ratelimit-reset': YEAR_9999 }), want: DAY },
  { name: 'reset: 1e400', status: 429, headers: () => ({ 'x-ratelimit-reset': '1e400' }), want: DAY },
  { name: 'reset: 1500 meant as ms, read as seconds', status: 429, headers: () => ({ 'x-ratelimit-reset': '1500' }), want: 1_500_000 },
  { name: 'reset: -5', status: 429, headers: () => ({ 'x-ratelimit-reset': '-5' }), want: 'succeeds' },
  // Counts on a 429.
  { name: 'limit 1e9 on a 429', status: 429, headers: () => ({ 'x-ratelimit-limit': '1000000000', 'x-ratelimit-remaining': '0' }), want: 'succeeds' },
  { name: 'remaining -5 on a 429', status: 429, headers: () => ({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '-5' }), want: 'succeeds' },
  // Counts on a success, then the next call under the same key.
  { name: 'limit 1e9, remaining 0', status: 200, headers: () => ({ 'x-ratelimit-limit': '1000000000', 'x-ratelimit-remaining': '0' }), want: 'succeeds' },
  { name: 'limit 1e9, remaining 999999999', status: 200, headers: () => ({ 'x-ratelimit-limit': '1000000000', 'x-ratelimit-remaining': '999999999' }), want: 'succeeds' },
  { name: 'limit 1e400, remaining 1e400', status: 200, headers: () => ({ 'x-ratelimit-limit': '1e400', 'x-ratelimit-remaining': '1e400' }), want: 'succeeds' },
  { name: 'remaining -5 of 10', status: 200, headers: () => ({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '-5' }), want: 'succeeds' },
  { name: 'limit 0, remaining 0', status: 200, headers: () => ({ 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0' }), want: 'succeeds' },
  { name: 'limit twice: 10 and 1e9', status: 200, headers: () => ({ 'x-ratelimit-limit': ['10', '1000000000'], 'x-ratelimit-remaining': '0' }), want: 'succeeds' },
  { name: 'limit 2.5, remaining 0.5', status: 200, headers: () => ({ 'x-ratelimit-limit': '2.5', 'x-ratelimit-remaining': '0.5' }), want: 'succeeds' },
  { name: 'limit lots, remaining NaN', status: 200, headers: () => ({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': 'NaN' }), want: 'succeeds' },
  { name: 'Retry-After 1e400 on a success', status: 200, headers: () => ({ 'x-ratelimit-remaining': '0', 'retry-after': '1e400' }), want: 'succeeds' },
  // A spent window and a reset far away: the pacer holds the key, the next call is refused at once.
  { name: 'remaining 0, reset epoch seconds a year away', status: 200, headers: () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': yearAway() }), want: 'succeeds', paced: DAY },
  { name: 'remaining 0, reset 1e400', status: 200, headers: () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1e400' }), want: 'succeeds', paced: DAY },
  { name: 'remaining 0, reset 99999999999', status: 200, headers: () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999' }), want: 'succeeds', paced: DAY },
  { name: 'remaining 0, reset twice: 1 and a year', status: 200, headers: () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': ['1', String(YEAR_S)] }), want: 'succeeds', paced: DAY },
];

const TOOLS = [
  { id: 'tinybird_query', path: '/tinybird/v0/sql', paced: false },
  { id: 'loops_send_event', path: '/loops/events/send', paced: true },
] as const;

interface Outcome {
  name: string;
  tool: (typeof TOOLS)[number];
  want: Want;
  credential: string;
  /** The call the case is about (the second, for a 200 case), and its time. */
  result?: ToolResult;
  thrown?: unknown;
  durationMs: number;
  requests: ScriptedRequest[];
  rateLimits: ToolResult['meta']['rateLimit'][];
}

/** Why a case failed, or undefined when it held. */
function problem(o: Outcome): string | undefined {
  if (o.thrown !== undefined) return `threw ${String(o.thrown)}`;
  const r = o.result!;
  const handedBack = o.want !== 'succeeds';
  if (handedBack) {
    if (r.success) return 'succeeded, expected rate_limited';
    if (r.error.code !== 'rate_limited' || !r.error.retryable) return `error ${r.error.code}, expected a retryable rate_limited`;
    if (Math.abs((r.error.retryAfterMs ?? -1) - (o.want as number)) > 5_000) return `retryAfterMs ${r.error.retryAfterMs}, expected about ${o.want}`;
    // Held, it would take the whole budget; half of it leaves room for a loaded machine (62 calls run at once).
    if (o.durationMs > BUDGET_MS / 2) return `handed back after ${Math.round(o.durationMs)} ms, not at once`;
  } else {
    if (!r.success) return `failed: ${r.error.code} ${r.error.message}`;
    if (o.durationMs > BUDGET_MS + 1_000) return `took ${Math.round(o.durationMs)} ms, past the budget`;
  }
  if (!r.success && r.error.retryAfterMs !== undefined && (r.error.retryAfterMs < 0 || r.error.retryAfterMs > DAY)) return 'retryAfterMs out of range';
  // Refused calls send nothing: one request for the first try, one more only when a call goes.
  if (o.requests.length !== (handedBack ? 1 : 2)) return `${o.requests.length} requests`;
  for (const req of o.requests) {
    if (req.method !== 'POST' || req.path !== o.tool.path) return `sent ${req.method} ${req.path}`;
    if (req.headers.authorization !== `Bearer ${o.credential}`) return 'sent without its credential';
    if (o.tool.paced && typeof req.headers['idempotency-key'] !== 'string') return 'a Loops send without an Idempotency-Key';
  }
  for (const info of o.rateLimits) {
    if (!info) continue;
    for (const n of [info.limit, info.remaining]) if (n !== undefined && !(Number.isInteger(n) && n >= 0 && n <= MAX_HEADER_COUNT)) return `meta count ${n}`;
    if (info.resetAt !== undefined && !(Date.parse(info.resetAt) <= Date.now() + DAY)) return `meta resetAt ${info.resetAt}`;
  }
  return undefined;
}

const warnings = watchTimerWarnings();
const outcomes: Outcome[] = [];
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
  const options = {
    endpoints: { loops: `${server.origin}/loops` },
    timeoutMs: 2_000,
    retry: { baseDelayMs: 20, maxDelayMs: 40, maxRetryAfterMs: BUDGET_MS },
  };
  const jobs = CASES.flatMap((c) => TOOLS.map((tool) => ({ c, tool })));
  await Promise.all(
    jobs.map(async ({ c, tool }) => {
      const credential = canary('hdr');
      const spec = TOOL_CASES.find((t) => t.id === tool.id)!;
      const success = { status: spec.reply.status, body: spec.reply.body };
      const first = { status: c.status, headers: c.headers(), body: c.status === 429 ? { error: 'Too many requests' } : spec.reply.body };
      const requests = server.script(credential, [first, success]);
      const params = withAuth(spec, server.origin, { token: credential, apiKey: credential });
      const outcome: Outcome = { name: c.name, tool, want: (tool.paced && c.paced) || c.want, credential, requests, rateLimits: [], durationMs: 0 };
      try {
        if (c.status === 200) outcome.rateLimits.push((await executeTool(tool.id as string, params, options)).meta.rateLimit);
        const started = performance.now();
        outcome.result = await executeTool(tool.id as string, params, options);
        outcome.durationMs = performance.now() - started;
        outcome.rateLimits.push(outcome.result.meta.rateLimit);
      } catch (error) {
        outcome.thrown = error;
      }
      outcomes.push(outcome);
    }),
  );
}, 30_000);

afterAll(async () => {
  warnings.stop();
  await server?.close();
  family.note(`${CASES.length} hostile rate-limit header sets × ${TOOLS.length} tools (${TOOLS.map((t) => t.id).join(', ')}), through executeTool against a local server`);
  family.note(`every figure is clamped: counts to [0, ${MAX_HEADER_COUNT}], waits to [0, ${DAY} ms]; a hold past retry.maxRetryAfterMs is rate_limited at once`);
});

describe('hostile rate-limit headers', () => {
  it('ran every case on every tool', () => {
    expect(outcomes).toHaveLength(CASES.length * TOOLS.length);
  });

  it.each(CASES.flatMap((c) => TOOLS.map((tool) => [c.name, tool.id] as const)))('%s: %s', (name, toolId) => {
    const outcome = outcomes.find((o) => o.name === name && o.tool.id === toolId)!;
    const found = problem(outcome);
    expect(family.record(found === undefined), found).toBe(true);
  });

  it('no timer was asked for more than 2³¹−1 ms', async () => {
    await warnings.settle();
    expect(family.record(warnings.seen.length === 0)).toBe(true);
    expect(warnings.seen).toEqual([]);
  });
});
