/**
 * The fault matrix: every tool of every block × every fault a service or the network can
 * produce. Each case must end in a normalized error or in success after a safe retry; the
 * fault server counts requests, so an unsafe call sent twice fails its case. Every case runs
 * with unique credentials that the faults echo back (the secret canary).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../../src/index.js';
import type { HarnessEvent, ToolResult } from '../../src/harness/types.js';
import { canary, captureOutput, leaks, watchUnhandled } from './canary.js';
import { FAULTS, SIZE_CAP, startFaultServer, type Fault, type SeenRequest } from './fault-server.js';
import { runPool } from './run-pool.js';
import { tally } from './tally.js';
import { TOOL_CASES, withAuth, type ReliabilityCase } from './tool-cases.js';
import { mustCover } from '../helpers/service-tables.js';

type Expected = { success: true; requests: number } | { success: false; code: string; status?: number; requests: number };

const STATUS_FAULTS: Partial<Record<Fault, number>> = { '500': 500, '502': 502, '503': 503, '504': 504, 'HTML error page': 502 };

/** What the contract says each case must end in. */
function expected(c: ReliabilityCase, fault: Fault): Expected {
  const status = STATUS_FAULTS[fault];
  if (status !== undefined) {
    const retried = c.safe || (c.nothingDone ?? []).includes(status);
    return retried ? { success: true, requests: 2 } : { success: false, code: 'upstream_error', status, requests: 1 };
  }
  switch (fault) {
    case '429 with Retry-After':
    case '429 without Retry-After':
      return { success: true, requests: 2 };
    case 'time-out':
    case 'stalled body':
      return c.safe ? { success: true, requests: 2 } : { success: false, code: 'timeout', requests: 1 };
    case 'reset mid-body':
      return c.safe ? { success: true, requests: 2 } : { success: false, code: 'network', requests: 1 };
    case 'slow body':
      return { success: true, requests: 1 };
    default:
      // A truncate's answer is its status (a 205 has no body): any 2xx body means done.
      if (c.id === 'tinybird_truncate_datasource' && fault !== 'body over the size cap') return { success: true, requests: 1 };
      // A custom API call returns whatever 2xx body the service sent: it has no shape to check.
      if (c.id.endsWith('_api_call') && fault !== 'body over the size cap') return { success: true, requests: 1 };
      return { success: false, code: 'invalid_response', requests: 1 };
  }
}

interface Outcome {
  tool: string;
  fault: Fault;
  result?: ToolResult;
  thrown?: unknown;
  requests: SeenRequest[];
  events: HarnessEvent[];
  secrets: string[];
  durationMs: number;
}

/** Why a case failed, or undefined when it held. */
function problem(c: ReliabilityCase, o: Outcome): string | undefined {
  const want = expected(c, o.fault);
  if (o.thrown !== undefined) return `threw ${String(o.thrown)}`;
  const r = o.result!;
  if (o.requests.length !== want.requests) return `${o.requests.length} requests, expected ${want.requests}`;
  if (r.meta.attempts !== want.requests) return `meta.attempts ${r.meta.attempts}, expected ${want.requests}`;
  if (want.success && !r.success) return `failed: ${r.error.code} ${r.error.message.slice(0, 120)}`;
  if (!want.success) {
    if (r.success) return 'succeeded, expected an error';
    if (r.error.code !== want.code) return `error ${r.error.code}, expected ${want.code}`;
    if (want.status !== undefined && r.error.status !== want.status) return `status ${r.error.status}, expected ${want.status}`;
    if (typeof r.error.message !== 'string' || r.error.message.length === 0) return 'error without a message';
    if (r.error.retryable) return 'a final error marked retryable';
  }
  // Ingest retries go with wait=true, so a retry's own fault can be retried safely.
  if (c.id === 'tinybird_events' && o.requests.length > 1 && !o.requests[1]!.url.includes('wait=true')) return 'ingest retry without wait=true';
  if (o.fault === '429 with Retry-After' && o.durationMs < 900) return `Retry-After: 1 not waited for (${o.durationMs} ms)`;
  const leaked = leaks([r, o.events], o.secrets);
  if (leaked.length) return 'a canary leaked into the result or a log event';
  return undefined;
}

const family = tally('Fault matrix', 'tool × fault');
const canaryFamily = tally('Secret canary', 'call with unique credentials (plus one scan of stdout/stderr)');
const outcomes: Outcome[] = [];
let output: ReturnType<typeof captureOutput>;
let unhandled: ReturnType<typeof watchUnhandled>;
let server: Awaited<ReturnType<typeof startFaultServer>>;

beforeAll(async () => {
  unhandled = watchUnhandled();
  output = captureOutput();
  server = await startFaultServer();
  const jobs = TOOL_CASES.flatMap((c) => FAULTS.map((fault) => ({ c, fault })));
  await runPool(jobs, 40, async ({ c, fault }) => {
    const secrets = { token: canary('token'), apiKey: canary('apikey') };
    const requests = server.register(c.id.startsWith('tinybird') ? secrets.token : secrets.apiKey, c, fault);
    const events: HarnessEvent[] = [];
    const started = performance.now();
    const outcome: Outcome = { tool: c.id, fault, requests, events, secrets: [secrets.token, secrets.apiKey], durationMs: 0 };
    try {
      outcome.result = await executeTool(c.id, withAuth(c, server.origin, secrets), {
        endpoints: { loops: `${server.origin}/loops` },
        timeoutMs: 2000,
        maxResponseBytes: SIZE_CAP,
        retry: { baseDelayMs: 20, maxDelayMs: 40 },
        logger: (event) => events.push(event),
      });
    } catch (error) {
      outcome.thrown = error;
    }
    outcome.durationMs = performance.now() - started;
    outcomes.push(outcome);
  });
}, 60_000);

afterAll(async () => {
  output?.stop();
  unhandled?.stop();
  await server?.close();
  family.note(`${TOOL_CASES.length} tools × ${FAULTS.length} faults: ${FAULTS.join(', ')}`);
  family.save('fault-matrix');
  canaryFamily.note('fault bodies echo the credential they received; results, errors, log events and everything written to stdout/stderr are scanned');
  canaryFamily.save('secret-canary');
});

describe('fault matrix', () => {
  it('covers every tool in the registry', () => {
    expect(TOOL_CASES.map((c) => c.id).sort()).toEqual(mustCover(TOOL_CASES.map((c) => c.id)));
    expect(outcomes).toHaveLength(TOOL_CASES.length * FAULTS.length);
  });

  it.each(TOOL_CASES.map((c) => [c.id, c] as const))('%s: every fault ends normalized, unsafe calls sent once', (_, c) => {
    const mine = outcomes.filter((o) => o.tool === c.id);
    expect(mine).toHaveLength(FAULTS.length);
    const problems = mine.map((o) => [o.fault, problem(c, o)] as const).filter(([, p]) => family.record(p === undefined) === false);
    expect(problems).toEqual([]);
  });

  it('no unhandled rejection, and no canary in anything written to stdout or stderr', () => {
    expect(unhandled.seen).toEqual([]);
    for (const o of outcomes) canaryFamily.record(leaks([o.result, o.events, o.thrown], o.secrets).length === 0);
    const all = outcomes.flatMap((o) => o.secrets);
    canaryFamily.record(leaks(output.text(), all).length === 0);
    expect(all).toHaveLength(outcomes.length * 2);
    expect(leaks(output.text(), all)).toEqual([]);
  });
});
