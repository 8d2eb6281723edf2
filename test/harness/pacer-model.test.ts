/**
 * The in-process pacer as a model-based test (fast-check `fc.commands`, issue 34), on a fake
 * clock: random sequences of calls under two keys, answers (200, 429, a fault with no answer)
 * given in any order, calls left hanging, aborted waits and the clock moved on. After every step:
 * - a key never holds more slots than its limit: requests running plus those finished less
 *   than one window ago (a slot frees one window after its request finished);
 * - calls under one key start in the order they asked;
 * - a waiting call starts within 2 ms once a slot is free for it (none is left behind), as
 *   long as the service has not said to hold back (no 429 on that key).
 * fast-check prints the seed, the run count and the shrunk command list on a failure.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Pacer, type Turn } from '../../src/harness/pace/pacer.js';

const LIMIT = 2;
const WINDOW = 100;
const KEYS = ['k1', 'k2'] as const;

interface Call {
  key: string;
  order: number;
  asked: number;
  started?: number;
  finished?: number;
  aborted?: boolean;
  turn?: Turn;
  controller: AbortController;
}

interface Real {
  pacer: Pacer;
  calls: Call[];
  /** Keys that got a 429: the service said to hold back, so when they start again is its call. */
  limited: Set<string>;
}
type Model = Record<string, never>;

const now = () => performance.now();
const tick = () => vi.advanceTimersByTimeAsync(0);

/** Slots `key` holds now: running, or finished less than a window ago. */
function slotsHeld(r: Real, key: string): number {
  const t = now();
  return r.calls.filter((c) => c.key === key && c.started !== undefined && (c.finished === undefined || t - c.finished < WINDOW)).length;
}

async function invariants(r: Real): Promise<void> {
  await tick();
  for (const key of KEYS) {
    expect(slotsHeld(r, key), `${key} holds more than ${LIMIT} slots at ${now()}`).toBeLessThanOrEqual(LIMIT);
    const started = r.calls.filter((c) => c.key === key && c.started !== undefined).sort((a, b) => a.started! - b.started! || a.order - b.order);
    const order = started.map((c) => c.order);
    expect(order, `${key}: calls started out of order`).toEqual([...order].sort((a, b) => a - b));
  }
  // A free slot is taken within 2 ms by whoever waits for it.
  await vi.advanceTimersByTimeAsync(2);
  for (const key of KEYS) {
    if (r.limited.has(key)) continue;
    const waiting = r.calls.filter((c) => c.key === key && c.started === undefined && !c.aborted);
    if (waiting.length) expect(slotsHeld(r, key), `${key}: ${waiting.length} waiting with a slot free at ${now()}`).toBe(LIMIT);
  }
}

type Cmd = fc.AsyncCommand<Model, Real>;

class Acquire implements Cmd {
  constructor(readonly key: string) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    const call: Call = { key: this.key, order: r.calls.length, asked: now(), controller: new AbortController() };
    r.calls.push(call);
    r.pacer.acquire({ key: this.key, limit: LIMIT, windowMs: WINDOW }, call.controller.signal).then(
      (turn) => {
        call.started = now();
        call.turn = turn;
      },
      () => {
        call.aborted = true;
      },
    );
    await invariants(r);
  }
  toString = () => `acquire(${this.key})`;
}

const ANSWERS = {
  ok: { status: 200, headers: {} },
  limited: { status: 429, headers: {} },
  fault: undefined,
} as const;

class Finish implements Cmd {
  constructor(
    readonly which: number,
    readonly answer: keyof typeof ANSWERS,
  ) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    const running = r.calls.filter((c) => c.turn && c.finished === undefined);
    if (running.length === 0) return;
    const call = running[this.which % running.length]!;
    call.finished = now();
    if (this.answer === 'limited') r.limited.add(call.key);
    call.turn!.done(ANSWERS[this.answer]);
    await invariants(r);
  }
  toString = () => `finish(#${this.which}, ${this.answer})`;
}

class Abort implements Cmd {
  constructor(readonly which: number) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    const waiting = r.calls.filter((c) => c.started === undefined && !c.aborted);
    if (waiting.length === 0) return;
    waiting[this.which % waiting.length]!.controller.abort(new Error('gave up'));
    await invariants(r);
  }
  toString = () => `abort(#${this.which})`;
}

class Advance implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    await vi.advanceTimersByTimeAsync(this.ms);
    await invariants(r);
  }
  toString = () => `advance(${this.ms})`;
}

const commands = [
  fc.constantFrom(...KEYS).map((k) => new Acquire(k)),
  fc.constantFrom(...KEYS).map((k) => new Acquire(k)),
  fc.tuple(fc.nat(5), fc.constantFrom('ok' as const, 'ok' as const, 'limited' as const, 'fault' as const)).map(([w, a]) => new Finish(w, a)),
  fc.nat(5).map((w) => new Abort(w)),
  fc.constantFrom(1, 49, 98, 99, 100, 250).map((ms) => new Advance(ms)),
];

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  await vi.advanceTimersByTimeAsync(50_000);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the pacer as a model (fast-check)', () => {
  it('random calls, answers, hangs, aborts and clock moves: never over the limit, in order, nobody left waiting', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: 'max' }), async (cmds) => {
        await fc.asyncModelRun(() => ({ model: {} as Model, real: { pacer: new Pacer(), calls: [], limited: new Set<string>() } }), cmds);
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
