/**
 * The delivery queue and its journal as a model-based test (fast-check `fc.commands`, issue
 * 34): random sequences of events queued, polls, answers that succeed, fail, refuse or throw,
 * sends left hanging, the clock moved on, and the process killed and restarted from its state
 * and journal. After every step the history is checked against the queue's promises:
 * - never two attempts of one delivery in flight at once (in one process);
 * - the attempts a delivery counts are the attempts that went out, never more than the schedule;
 * - nothing is sent before it is due, and a poll sends everything due that is not in flight;
 * - a delivered or given-up delivery is never sent again, not even after a restart;
 * - the same event to the same target is one delivery.
 * fast-check prints the seed, the run count and the shrunk command list on a failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, type DeliveryOutcome } from '../../src/satellites/notifications/delivery-retry.js';
import { DeliveryQueue, replayProgress, type DeliveryProgress, type QueueState, type Target } from '../../src/satellites/notifications/queue.js';
import { fakeClock, flush } from './fake-clock.js';

const T0 = Date.UTC(2026, 0, 5, 12);

interface Send {
  epoch: number;
  id: string;
  at: number;
  answered: boolean;
  answer(outcome: DeliveryOutcome | Error): void;
}

/** The system under test: one process's queue, and what survives it (the saved state and the journal). */
interface Real {
  clock: ReturnType<typeof fakeClock>;
  epoch: number;
  queue: DeliveryQueue;
  state: QueueState;
  saved: QueueState;
  journal: DeliveryProgress[];
  sends: Send[];
  /** Deliveries seen finished (delivered or given up): they stay finished. */
  finishedIds: Set<string>;
}

/** What the model remembers: the events queued (one target). */
interface Model {
  queued: Set<string>;
}

const clone = <T,>(value: T): T => structuredClone(value);

function open(real: Omit<Real, 'queue' | 'state'> & Partial<Real>): Real {
  const state = clone(real.saved);
  replayProgress(state, real.journal);
  const epoch = real.epoch;
  const target: Target = {
    key: 'hook',
    label: 'hook',
    send: (delivery) =>
      new Promise<DeliveryOutcome>((resolve, reject) => {
        const send: Send = {
          epoch,
          id: delivery.id,
          at: real.clock.now(),
          answered: false,
          answer: (outcome) => {
            send.answered = true;
            if (outcome instanceof Error) reject(outcome);
            else resolve(outcome);
          },
        };
        real.sends.push(send);
      }),
  };
  const self = real as Real;
  self.state = state;
  self.queue = new DeliveryQueue({
    state,
    record: (progress) => void self.journal.push(clone(progress)),
    targets: new Map([[target.key, target]]),
    clock: real.clock,
    log: () => {},
    random: () => 0.5,
  });
  return self;
}

/** The checks that hold after every step. */
async function invariants(real: Real): Promise<void> {
  await flush();
  const live = real.sends.filter((s) => s.epoch === real.epoch && !s.answered);
  const liveIds = live.map((s) => s.id);
  expect(new Set(liveIds).size, `two attempts in flight at once: ${liveIds.join(', ')}`).toBe(liveIds.length);
  for (const d of real.queue.deliveries) {
    const made = real.sends.filter((s) => s.id === d.id);
    expect(d.attempts, `${d.id}: counts ${d.attempts} attempts, ${made.length} went out`).toBe(made.length);
    expect(d.attempts).toBeLessThanOrEqual(MAX_ATTEMPTS);
    if (d.state !== 'pending') real.finishedIds.add(d.id);
  }
  for (const id of real.finishedIds) {
    const d = real.queue.deliveries.find((x) => x.id === id);
    if (d) expect(d.state, `${id} finished, then pending again`).not.toBe('pending');
  }
}

type Cmd = fc.AsyncCommand<Model, Real>;

class Enqueue implements Cmd {
  constructor(readonly event: number) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    const created = r.queue.enqueue({ target: 'hook', eventId: `evt_${this.event}`, workflowId: 'wf', executionId: `exec_${this.event}`, body: `{"e":${this.event}}`, reasons: [] });
    const key = `evt_${this.event}`;
    // The same event to the same target is one delivery (kept a day after it finishes).
    if (m.queued.has(key)) expect(created, `${key} queued twice`).toBeUndefined();
    else expect(created?.state).toBe('pending');
    m.queued.add(key);
    // The notifier saves its state after queueing: the journal is folded into it.
    r.saved = clone(r.state);
    r.journal = [];
    await invariants(r);
  }
  toString = () => `enqueue(evt_${this.event})`;
}

class Poll implements Cmd {
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    const now = r.clock.now();
    const inFlight = new Set(r.sends.filter((s) => s.epoch === r.epoch && !s.answered).map((s) => s.id));
    const due = r.queue.deliveries.filter((d) => d.state === 'pending' && d.nextAttemptAt <= now && !inFlight.has(d.id)).map((d) => d.id);
    const before = r.sends.length;
    const { done } = r.queue.startDue();
    done.catch(() => {});
    await flush();
    const started = r.sends.slice(before);
    for (const s of started) expect(s.at).toBe(now);
    // Everything due and free went out now (or was given up: the last attempt died with a process).
    for (const id of due) {
      const d = r.queue.deliveries.find((x) => x.id === id)!;
      expect(started.some((s) => s.id === id) || d.state === 'failed', `${id} was due at ${d.nextAttemptAt - T0} (now ${now - T0}) and not sent`).toBe(true);
    }
    // Nothing that was not due went out.
    for (const s of started) expect(due, `${s.id} sent before it was due`).toContain(s.id);
    await invariants(r);
  }
  toString = () => 'poll';
}

const OUTCOMES: Record<string, () => DeliveryOutcome | Error> = {
  ok: () => ({ kind: 'status', status: 200 }),
  fail500: () => ({ kind: 'status', status: 500 }),
  refuse400: () => ({ kind: 'status', status: 400 }),
  timeout: () => ({ kind: 'timeout', afterMs: 30_000 }),
  thrown: () => new Error('the channel broke'),
};

class Answer implements Cmd {
  constructor(
    readonly which: number,
    readonly outcome: keyof typeof OUTCOMES,
  ) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    const live = r.sends.filter((s) => s.epoch === r.epoch && !s.answered);
    if (live.length === 0) return;
    live[this.which % live.length]!.answer(OUTCOMES[this.outcome]!());
    await invariants(r);
  }
  toString = () => `answer(#${this.which}, ${this.outcome})`;
}

class Advance implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    r.clock.set(r.clock.now() + this.ms);
    await invariants(r);
  }
  toString = () => `advance(${this.ms})`;
}

/** The clock moved to the earliest due time (what the delivery loop sleeps until). */
class AdvanceToDue implements Cmd {
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    const due = r.queue.nextDueAt();
    if (due !== undefined && due > r.clock.now()) r.clock.set(due);
    await invariants(r);
  }
  toString = () => 'advance to the next due time';
}

/** The process is killed: sends in flight are never answered; a new one starts from the saved state and the journal. */
class Restart implements Cmd {
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    for (const s of r.sends) if (s.epoch === r.epoch && !s.answered) s.answered = true; // dead with the process
    r.epoch++;
    open(r);
    await invariants(r);
  }
  toString = () => 'restart';
}

const commands = [
  fc.integer({ min: 0, max: 3 }).map((e) => new Enqueue(e)),
  fc.constant(new Poll()),
  fc.constant(new Poll()),
  fc.tuple(fc.nat(7), fc.constantFrom(...(Object.keys(OUTCOMES) as (keyof typeof OUTCOMES)[]))).map(([w, o]) => new Answer(w, o)),
  // At most 50 steps of 10 min: finished deliveries stay remembered (a day), so a repeated event is always refused.
  fc.constantFrom(0, 1, 4_999, 5_000, 5_500, 30_000, 180_000, 600_000).map((ms) => new Advance(ms)),
  fc.constant(new AdvanceToDue()),
  fc.constant(new AdvanceToDue()),
  fc.nat(7).map((w) => new Answer(w, 'fail500')),
  fc.constant(new Restart()),
];

describe('the delivery queue and its journal as a model (fast-check)', () => {
  it('random polls, answers, hangs, clock moves and restarts keep every promise after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 50, size: 'max' }), async (cmds) => {
        const setup = () => {
          const clock = fakeClock(T0);
          const real = open({ clock, epoch: 0, saved: { deliveries: [] }, journal: [], sends: [], finishedIds: new Set() });
          return { model: { queued: new Set<string>() } as Model, real };
        };
        await fc.asyncModelRun(setup, cmds);
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});
