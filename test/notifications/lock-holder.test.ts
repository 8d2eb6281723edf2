/**
 * Promise (issue 34): a data directory's lock is only ever released by its holder. A monitor
 * that lost its lock (taken over as stale) and then stops must not remove the new holder's
 * lock, which would let a third monitor start beside it. Then the same promise as a model:
 * random sequences of takes, releases (also late and repeated ones) and holders turning stale,
 * checked after every step.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/satellites/notifications/lock.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function dir() {
  const d = mkdtempSync(join(tmpdir(), 'flowblocks-lock-holder-'));
  dirs.push(d);
  return d;
}

const lockOf = (d: string) => join(d, 'monitor.lock');
const read = (d: string) => (existsSync(lockOf(d)) ? readFileSync(lockOf(d), 'utf8') : undefined);

/** Replaces the lock as a takeover does: a whole new file under the same name (this process, a new nonce: a live holder). */
function takeOver(d: string, nonce: string): string {
  const mine = JSON.parse(read(d)!) as Record<string, unknown>;
  const text = `${JSON.stringify({ ...mine, nonce })}\n`;
  writeFileSync(`${lockOf(d)}.next`, text);
  renameSync(`${lockOf(d)}.next`, lockOf(d));
  return text;
}

/** Marks the current lock's holder as gone: its pid now belongs to a process started at another time. */
function makeStale(d: string): void {
  const holder = JSON.parse(read(d)!) as Record<string, unknown>;
  writeFileSync(lockOf(d), `${JSON.stringify({ ...holder, pid: 2147483646 })}\n`);
}

describe('promise: a lock is only ever released by its holder', () => {
  it('a monitor whose lock was taken over leaves the new holder\'s lock when it stops, and a third monitor is refused', () => {
    const d = dir();
    const releaseOld = lockDataDir(d);
    const newHolder = takeOver(d, 'the-new-holder');
    releaseOld();
    expect(read(d)).toBe(newHolder);
    expect(() => lockDataDir(d)).toThrow(/another monitor \(pid \d+\) is using/);
  });

  it('a stale lock taken over by a new monitor: the old one\'s late release keeps the new lock', () => {
    const d = dir();
    const releaseOld = lockDataDir(d);
    makeStale(d);
    const releaseNew = lockDataDir(d);
    const taken = read(d);
    expect(JSON.parse(taken!)).toMatchObject({ pid: process.pid });
    releaseOld();
    expect(read(d)).toBe(taken);
    expect(() => lockDataDir(d)).toThrow(/another monitor/);
    releaseNew();
    expect(read(d)).toBeUndefined();
  });

  it('a release called twice, the second after another monitor took the lock, keeps that monitor\'s lock', () => {
    const d = dir();
    const first = lockDataDir(d);
    first();
    const second = lockDataDir(d);
    const held = read(d);
    first();
    expect(read(d)).toBe(held);
    second();
    expect(read(d)).toBeUndefined();
  });

  it('a lock of the same process with another nonce is another holder\'s', () => {
    const d = dir();
    const release = lockDataDir(d);
    const other = takeOver(d, 'same-pid-other-lock');
    release();
    expect(read(d)).toBe(other);
  });
});

describe('what a lock file may hold (survivors of the mutation run of lock.ts)', () => {
  it('reads an older pid-only lock with its newline as that pid: a live one is refused', () => {
    const d = dir();
    writeFileSync(lockOf(d), `${process.ppid}\n`);
    expect(() => lockDataDir(d)).toThrow(`another monitor (pid ${process.ppid}) is using ${d}`);
  });

  it('takes over a lock file that holds no holder at all (not JSON, not a pid)', () => {
    const d = dir();
    writeFileSync(lockOf(d), 'garbage {');
    const release = lockDataDir(d);
    expect(JSON.parse(read(d)!)).toMatchObject({ pid: process.pid });
    release();
  });

  it('says what is wrong, at once, when the lock cannot be read (a directory in its place)', () => {
    const d = dir();
    mkdirSync(lockOf(d));
    const started = Date.now();
    expect(() => lockDataDir(d)).toThrow(/EISDIR/);
    // Not the 2 s a takeover is waited for.
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

/** Model: who holds the lock (a take's number) and whether its holder has been judged gone. */
interface LockModel {
  holder?: { take: number; stale: boolean };
  takes: number;
}
interface LockReal {
  d: string;
  releases: (() => void)[];
  texts: string[];
}

class Take implements fc.Command<LockModel, LockReal> {
  check = () => true;
  run(m: LockModel, r: LockReal): void {
    const free = !m.holder || m.holder.stale;
    let release: (() => void) | undefined;
    try {
      release = lockDataDir(r.d);
    } catch (error) {
      expect(free, `refused while the lock was free: ${(error as Error).message}`).toBe(false);
      return;
    }
    expect(free, 'took a lock a live monitor holds').toBe(true);
    r.releases.push(release);
    r.texts.push(read(r.d)!);
    m.holder = { take: m.takes++, stale: false };
    agrees(m, r);
  }
  toString = () => 'take';
}

class Release implements fc.Command<LockModel, LockReal> {
  constructor(readonly which: number) {}
  check = (m: LockModel) => m.takes > 0;
  run(m: LockModel, r: LockReal): void {
    const take = this.which % m.takes;
    r.releases[take]!();
    // Only the holder's own release frees it; a holder judged gone no longer holds its text.
    if (m.holder && m.holder.take === take && !m.holder.stale) m.holder = undefined;
    agrees(m, r);
  }
  toString = () => `release(take ${this.which})`;
}

class TurnStale implements fc.Command<LockModel, LockReal> {
  check = (m: LockModel) => m.holder !== undefined && !m.holder.stale;
  run(m: LockModel, r: LockReal): void {
    makeStale(r.d);
    m.holder!.stale = true;
    agrees(m, r);
  }
  toString = () => 'holder judged gone';
}

/** After every step: the lock file is exactly the model's holder's (or absent). */
function agrees(m: LockModel, r: LockReal): void {
  const text = read(r.d);
  if (!m.holder) return void expect(text, 'a lock is left with no holder in the model').toBeUndefined();
  expect(text, `the lock of take ${m.holder.take} is gone`).toBeDefined();
  const expected = JSON.parse(r.texts[m.holder.take]!) as { nonce: string };
  expect((JSON.parse(text!) as { nonce: string }).nonce).toBe(expected.nonce);
}

describe('the lock as a model (fast-check)', () => {
  it('random takes, releases (late and repeated) and stale holders: the file is always the holder\'s', () => {
    const commands = [fc.constant(new Take()), fc.nat(20).map((n) => new Release(n)), fc.constant(new TurnStale())];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 25 }), (cmds) => {
        fc.modelRun(() => ({ model: { takes: 0 } as LockModel, real: { d: dir(), releases: [], texts: [] } as LockReal }), cmds);
      }),
      { numRuns: 40 },
    );
  });
});
