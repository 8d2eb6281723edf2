/**
 * The lock's promises where only a race reaches them: two monitors never both hold the lock, a
 * stale lock is taken over exactly once and at once, a monitor killed mid-takeover leaves a
 * lock the next start can take, and files removed by hand (as the lock's error tells an
 * operator to) never make a start or a stop throw. The races run in this process through
 * `lockDataDir`'s seam (`LockOps`): another monitor's whole start, a release or a crash runs
 * between two of the lock's file operations, where the child-process racers of
 * test/reliability/hostile-monitor.test.ts reach them only by chance.
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir, systemLockOps, type LockOps } from '../../src/satellites/notifications/lock.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function dir() {
  const d = mkdtempSync(join(tmpdir(), 'flowblocks-lock-race-'));
  dirs.push(d);
  return d;
}

const lockOf = (d: string) => join(d, 'monitor.lock');
const read = (d: string) => (existsSync(lockOf(d)) ? readFileSync(lockOf(d), 'utf8') : undefined);
const DEAD_PID = '2147483646';
const graveOf = (d: string, text: string) => `${lockOf(d)}.stale-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

type FileOp = 'link' | 'read' | 'remove';
/** The system's operations, with `step` run once, just before the first file operation `when` picks. */
function pausedBefore(when: (op: FileOp, path: string, to?: string) => boolean, step: () => void): LockOps {
  let done = false;
  const before = (op: FileOp, path: string, to?: string) => {
    if (!done && when(op, path, to)) {
      done = true;
      step();
    }
  };
  return {
    ...systemLockOps,
    link: (from, to) => (before('link', from, to), systemLockOps.link(from, to)),
    read: (path) => (before('read', path), systemLockOps.read(path)),
    remove: (path, options) => (before('remove', path), systemLockOps.remove(path, options)),
  };
}

/** What a kill -9 does to the code: it stops there, and nothing after it runs. */
class Killed extends Error {}

describe('two monitors never both hold the lock', () => {
  it('two monitors take over one stale lock: the one that moves it aside second finds the first\'s lock and is refused', () => {
    const d = dir();
    writeFileSync(lockOf(d), DEAD_PID);
    let first: (() => void) | undefined;
    // The second judged the lock stale; before it moves it aside, the first takes it over whole.
    const second = pausedBefore((op, _, to) => op === 'link' && to!.includes('.stale-'), () => (first = lockDataDir(d)));
    expect(() => lockDataDir(d, second)).toThrow(`another monitor (pid ${process.pid}) is using ${d}`);
    const held = read(d);
    expect(JSON.parse(held!)).toMatchObject({ pid: process.pid });
    expect(readdirSync(d)).toEqual(['monitor.lock']); // the first's lock, and nothing moved aside left
    first!();
    expect(read(d)).toBeUndefined();
  });

  it('a monitor killed after moving the stale lock aside: the racer that read the stale lock before takes the free lock, once', () => {
    const d = dir();
    writeFileSync(lockOf(d), DEAD_PID);
    // The first has removed the stale lock and dies before linking its own.
    const dies = pausedBefore((op, _, to) => op === 'link' && to === lockOf(d) && !existsSync(lockOf(d)), () => {
      throw new Killed();
    });
    const second = pausedBefore((op, _, to) => op === 'link' && to!.includes('.stale-'), () => expect(() => lockDataDir(d, dies)).toThrow(Killed));
    const release = lockDataDir(d, second);
    expect(JSON.parse(read(d)!)).toMatchObject({ pid: process.pid });
    expect(() => lockDataDir(d)).toThrow(/another monitor/);
    release();
    expect(read(d)).toBeUndefined();
  });

  it('the holder releases between a refused link and the read of its lock: the start goes round and takes the lock', () => {
    const d = dir();
    const holder = lockDataDir(d);
    const next = pausedBefore((op, path) => op === 'read' && path === lockOf(d), holder);
    const release = lockDataDir(d, next);
    expect(JSON.parse(read(d)!)).toMatchObject({ pid: process.pid });
    release();
    expect(readdirSync(d)).toEqual([]);
  });
});

describe('a start never mistakes a fault of the file system for a held lock', () => {
  it('a file system that refuses hard links (EPERM): the start fails at once, naming it, and leaves no file', () => {
    const d = dir();
    const refuses: LockOps = {
      ...systemLockOps,
      link: () => {
        throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
      },
    };
    const started = Date.now();
    expect(() => lockDataDir(d, refuses)).toThrow(/EPERM/);
    expect(Date.now() - started).toBeLessThan(1_000); // not the 2 s a takeover is waited for
    expect(readdirSync(d)).toEqual([]);
  });
});

describe('files removed by hand during a start or a stop', () => {
  // The lock's own error tells an operator to remove monitor.lock and any monitor.lock.stale-*;
  // a temp cleaner may remove the temp file. A start still takes the lock, a stop still returns.
  const during = [
    { what: 'the stale lock, after it was moved aside', stale: true, file: (d: string) => lockOf(d) },
    { what: 'the moved-aside stale lock', stale: true, file: (d: string) => graveOf(d, DEAD_PID) },
    { what: 'the start\'s temp file', stale: false, file: (d: string) => readdirSync(d).filter((f) => f.endsWith('.tmp')).map((f) => join(d, f))[0]! },
  ];
  it.each(during)('$what, just before the start removes it: the start takes the lock', ({ stale, file }) => {
    const d = dir();
    if (stale) writeFileSync(lockOf(d), DEAD_PID);
    let target = '';
    const ops = pausedBefore(
      (op, path) => op === 'remove' && path === (target ||= file(d)) && (path !== lockOf(d) || existsSync(graveOf(d, DEAD_PID))),
      () => rmSync(target),
    );
    const release = lockDataDir(d, ops);
    expect(JSON.parse(read(d)!)).toMatchObject({ pid: process.pid });
    expect(readdirSync(d)).toEqual(['monitor.lock']);
    release();
    expect(read(d)).toBeUndefined();
  });

  it('the lock, between the holder\'s check that it is its own and its removal: the stop returns', () => {
    const d = dir();
    // The holder has read its own text and is about to remove it.
    const ops = pausedBefore((op, path) => op === 'remove' && path === lockOf(d), () => rmSync(lockOf(d)));
    const release = lockDataDir(d, ops);
    expect(() => release()).not.toThrow();
    expect(readdirSync(d)).toEqual([]);
  });
});

/** The system's file operations on a fake clock: each pause moves it on; a busy loop is stopped by name. */
function onFakeClock() {
  const clock = { now: 0, pauses: [] as number[], lastLook: 0, ops: 0 };
  const look = () => {
    clock.lastLook = clock.now;
    if (++clock.ops > 10_000) throw new Error('spinning: 10000 file operations without waiting');
  };
  const ops: LockOps = {
    link: (from, to) => (look(), systemLockOps.link(from, to)),
    read: (path) => (look(), systemLockOps.read(path)),
    remove: systemLockOps.remove,
    now: () => clock.now,
    pause: (ms) => {
      clock.pauses.push(ms);
      clock.now += ms;
    },
  };
  return { clock, ops };
}

describe('a stale lock is taken over at once; another\'s unfinished takeover is waited for, then given up', () => {
  it('a stale lock: taken over without a single wait', () => {
    const d = dir();
    writeFileSync(lockOf(d), DEAD_PID);
    const { clock, ops } = onFakeClock();
    lockDataDir(d, ops)();
    expect(clock.pauses).toEqual([]);
  });

  it('a takeover left unfinished (its moved-aside file still there): looked at every 5 ms, given up at 2 s', () => {
    const d = dir();
    writeFileSync(lockOf(d), DEAD_PID);
    linkSync(lockOf(d), graveOf(d, DEAD_PID));
    const { clock, ops } = onFakeClock();
    expect(() => lockDataDir(d, ops)).toThrow('a takeover of its stale lock did not finish');
    expect(new Set(clock.pauses)).toEqual(new Set([5]));
    expect(clock.now).toBe(2_000);
    expect(clock.lastLook).toBeLessThan(2_000); // no look at or after the deadline
    expect(readdirSync(d).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('the system\'s pause blocks the thread for its time (a look every 5 ms, not a busy loop)', () => {
    const started = performance.now();
    systemLockOps.pause(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('what a lock file may hold: only digits are an older lock\'s pid', () => {
  it.each([
    ['an exponent', (pid: number) => `${pid}e0`],
    ['a sign', (pid: number) => `+${pid}`],
  ])('a live pid written with %s is no holder: the lock is taken over', (_, write) => {
    const d = dir();
    writeFileSync(lockOf(d), write(process.ppid));
    const release = lockDataDir(d);
    expect(JSON.parse(read(d)!)).toMatchObject({ pid: process.pid });
    release();
  });
});
